/**
 * The feed and the gate read a device's standing ahead, in their first batch, for the UDID and owner this
 * instance remembers for a device key or a gate link (issue 41, shared/domain/sources/standing-ahead.ts). What
 * a reader sees must be exactly what a cold instance would show: a standing changed after it was remembered is
 * seen at once, and a key that no longer names the remembered UDID never gets that UDID's standing.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startTestApi, type ApiResponse, type TestApi } from '../support/api';
import { makeDraft, makeOwner, newUdid, type Owner } from '../support/fixtures';
import { translate } from '../../shared/i18n/catalog';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { deviceKeyItem } from '../../shared/db/repositories/device-key-repository';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

interface Feed {
  name: string;
  apps: { name: string; downloadURL: string }[];
}

const manage = (owner: Owner, rest: string) => `/api/appstore/manage/sources/${owner.source.source_id}/${rest}`;
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

async function ownerWithApp(): Promise<Owner> {
  const owner = await makeOwner();
  const app = await makeDraft(owner.source.source_id, { name: 'Game', downloadUrl: 'https://dl.example.com/g.ipa' });
  expect((await api.request('POST', manage(owner, `apps/${app.id}/publish`), { headers: owner.bearer })).body.code).toBe(1);
  return owner;
}

async function deviceUrl(owner: Owner, udid: string): Promise<string> {
  const res = await api.request('GET', `${manage(owner, 'device-url')}?udid=${udid}`, { headers: owner.bearer });
  return local(res.body.data!.url as string);
}

async function read(path: string): Promise<Feed> {
  const res = await api.request('GET', path, { headers: { 'X-Lang': 'en' } });
  expect(res.status).toBe(200);
  return res.body as unknown as Feed;
}

const block = (owner: Owner, udid: string) => api.request('PUT', manage(owner, `blocklist/${udid}`), { headers: owner.bearer });
const download = (link: string): Promise<ApiResponse> => api.request('GET', local(link));

test('a device blocked after its key was remembered reads the blocked document at once, and its remembered gate link is refused', async () => {
  const owner = await ownerWithApp();
  const udid = newUdid();
  const url = await deviceUrl(owner, udid);
  const before = await read(url);
  expect(before.apps.map((a) => a.name)).toEqual(['Game']);
  // The link opened twice: the instance remembers its UDID and reads its standing ahead from then on.
  expect((await download(before.apps[0]!.downloadURL)).status).toBe(302);
  expect((await download(before.apps[0]!.downloadURL)).status).toBe(302);
  expect((await read(url)).name).not.toBe(translate('en', 'blocked_title'));

  expect((await block(owner, udid)).body.code).toBe(1);
  expect((await read(url)).name).toBe(translate('en', 'blocked_title'));
  const refused = await download(before.apps[0]!.downloadURL);
  expect([refused.status, refused.body.data?.error]).toEqual([403, 'blocked']);
});

test('a key revoked after it was remembered proves nothing: the feed reads as with a key never issued', async () => {
  const owner = await ownerWithApp();
  const udid = newUdid();
  const url = await deviceUrl(owner, udid);
  await read(url);
  await read(url);
  const revoked = await api.request('DELETE', `${manage(owner, 'device-url')}?udid=${udid}`, { headers: owner.bearer });
  expect(revoked.body.code).toBe(1);
  const unknown = await read(`/api/rjy/${owner.source.source_id}/appstore?dk=${'C'.repeat(32)}`);
  const after = await read(url);
  expect(after.name).toBe(unknown.name);
  expect(after.apps.map((a) => a.name)).toEqual(unknown.apps.map((a) => a.name));
  // Its links are bound to no device: the gate asks for one.
  expect((await download(after.apps[0]!.downloadURL)).body).toMatchObject({ data: { error: 'udid_required' } });
});

test('a key that names another UDID than the one remembered gets that UDID’s standing, never the remembered one’s', async () => {
  const owner = await ownerWithApp();
  const [first, second] = [newUdid(), newUdid()];
  const url = await deviceUrl(owner, first);
  await read(url);
  expect((await read(url)).name).not.toBe(translate('en', 'blocked_title'));
  expect((await block(owner, second)).body.code).toBe(1);
  // Keys are never re-pointed by the service; the item is rewritten here to prove the check, not trusted memory.
  const key = new URLSearchParams(url.split('?')[1]).get('dk')!;
  await documentClient().send(
    new UpdateCommand({ TableName: tableName('sourceProtection'), Key: { source_id: owner.source.source_id, item_key: deviceKeyItem(key) }, UpdateExpression: 'SET udid = :u', ExpressionAttributeValues: { ':u': second.toUpperCase() } }),
  );
  expect((await read(url)).name).toBe(translate('en', 'blocked_title'));
  // And back: the first UDID's own standing again (not blocked).
  await documentClient().send(
    new UpdateCommand({ TableName: tableName('sourceProtection'), Key: { source_id: owner.source.source_id, item_key: deviceKeyItem(key) }, UpdateExpression: 'SET udid = :u', ExpressionAttributeValues: { ':u': first.toUpperCase() } }),
  );
  expect((await read(url)).name).not.toBe(translate('en', 'blocked_title'));
});

test('a claimed UDID blocked after its source was remembered reads the blocked document at once', async () => {
  const owner = await ownerWithApp();
  const udid = newUdid();
  const path = `/api/rjy/${owner.source.source_id}/appstore?udid=${udid}`;
  await read(path);
  expect((await read(path)).name).not.toBe(translate('en', 'blocked_title'));
  await block(owner, udid);
  expect((await read(path)).name).toBe(translate('en', 'blocked_title'));
});
