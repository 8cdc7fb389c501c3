/**
 * Issue 33: a device is proven, not claimed. The two medium findings of the security probe, reproduced as a
 * user would meet them, then the rules that close them: device-bound feed URLs, reports that cannot be forged.
 */
import { startTestApi, type ApiResponse, type TestApi } from '../support/api';
import { atMinuteStart } from '../support/clock';
import { makeDraft, makeOwner, newUdid, type Owner } from '../support/fixtures';
import { downloadUrls, feedProblems, NO_PROBLEMS } from '../support/feed-validators';
import { importDevice } from '../../shared/domain/devices/device-import';
import { translate } from '../../shared/i18n/catalog';
import type { AppMetadata } from '../../shared/records/app';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

interface Feed {
  name: string;
  apps: { name: string; lock: string; downloadURL: string; bundleIdentifier: string; versions: { downloadURL: string }[] }[];
}

const feedPath = (sourceId: string) => `/api/rjy/${sourceId}/appstore`;
const manage = (sourceId: string, rest: string) => `/api/appstore/manage/sources/${sourceId}/${rest}`;
const b64 = (text: string) => Buffer.from(text).toString('base64');

async function publish(owner: Owner, draft: Partial<AppMetadata> & { downloadUrl?: string }) {
  const app = await makeDraft(owner.source.source_id, draft);
  expect((await api.request('POST', manage(owner.source.source_id, `apps/${app.id}/publish`), { headers: owner.bearer })).body.code).toBe(1);
}

async function settings(owner: Owner, json: Record<string, unknown>) {
  const res = await api.request('PATCH', `/api/appstore/manage/sources/${owner.source.source_id}`, { headers: owner.bearer, json });
  expect(res.body.code).toBe(1);
}

async function unlockCode(owner: Owner): Promise<string> {
  const res = await api.request('POST', manage(owner.source.source_id, 'unlock-codes'), { headers: owner.bearer, json: { count: 1, days: 30 } });
  return (res.body.data!.codes as { code: string }[])[0]!.code;
}

/** The path and query of an absolute URL the service handed out. */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

async function deviceUrl(owner: Owner, udid: string): Promise<string> {
  const res = await api.request('GET', `${manage(owner.source.source_id, 'device-url')}?udid=${udid}`, { headers: owner.bearer });
  expect(res.body).toMatchObject({ code: 1, data: { udid: udid.toUpperCase(), url: expect.stringMatching(/\/appstore\?dk=[A-Za-z0-9_-]{32}$/) } });
  return res.body.data!.url as string;
}

async function read(path: string, headers: Record<string, string> = {}): Promise<Feed> {
  const res = await api.request('GET', path, { headers });
  expect(res.status).toBe(200);
  return res.body as unknown as Feed;
}

const download = (link: string, headers: Record<string, string> = {}): Promise<ApiResponse> => api.request('GET', local(link), { headers });

describe('medium 1: anyone could block any device', () => {
  test('an anonymous form post from another site naming a paying customer blocks nobody; the customer keeps the feed', async () => {
    const owner = await makeOwner();
    await settings(owner, { open_black: 1, open_black2: 1 });
    await publish(owner, { name: 'Premium', lock: 1, downloadUrl: 'https://dl.example.com/p.ipa' });
    const customer = newUdid();
    // the customer pays: the code binds to the UDID (how every existing customer unlocked)
    expect((await api.request('GET', `${feedPath(owner.source.source_id)}?udid=${customer}&code=${await unlockCode(owner)}`)).body.code).toBe(1);

    const forged = await api.request('POST', feedPath(owner.source.source_id), {
      headers: { Origin: 'https://evil.example', 'X-Lang': 'en' },
      form: { value: b64(`${customer}|`) },
    });
    expect([forged.status, forged.body.code, forged.body.data?.error]).toEqual([400, 40002, 'report_json_required']);
    // JSON without the device's key, or with another device's key, counts for nothing either
    const anonymous = await api.request('POST', feedPath(owner.source.source_id), { json: { value: b64(`${customer}|${customer}`) } });
    expect([anonymous.status, anonymous.body.data?.error]).toEqual([400, 'device_key_required']);
    const other = await deviceUrl(owner, newUdid());
    const wrongKey = await api.request('POST', local(other), { json: { value: b64(`${customer}|`) } });
    expect([wrongKey.status, wrongKey.body.data?.error]).toEqual([400, 'device_key_required']);

    const list = await api.request('GET', manage(owner.source.source_id, 'blocklist'), { headers: owner.bearer });
    expect(list.body.data).toMatchObject({ blocked: [], monitored: [] });
    const after = await read(local(await deviceUrl(owner, customer)));
    expect(after.name).toBe('Fixture source');
    expect(after.apps[0]!.lock).toBe('0');
    expect((await download(after.apps[0]!.downloadURL)).headers.get('location')).toBe('https://dl.example.com/p.ipa');
  });

  test('a device reporting itself with its key counts; an owner’s device or an unlocked one is only monitored', async () => {
    const owner = await makeOwner();
    await settings(owner, { open_black: 1 });
    await publish(owner, { name: 'Game' });
    const stranger = newUdid();
    const strangerUrl = await deviceUrl(owner, stranger);
    const own = (await importDevice({ userId: owner.user.userId, udid: newUdid() }, 1_700_000_000)).udid.toUpperCase();
    const ownUrl = await deviceUrl(owner, own);
    const paying = newUdid();
    const payingUrl = await deviceUrl(owner, paying);
    expect((await api.request('GET', `${local(payingUrl)}&code=${await unlockCode(owner)}`)).body.code).toBe(1);

    const report = (url: string, udid: string) => api.request('POST', local(url), { json: { value: b64(`${udid}|`) } });
    expect((await report(strangerUrl, stranger)).body.data).toEqual({ blocked: [stranger.toUpperCase()], monitored: [] });
    expect((await report(ownUrl, own)).body.data).toEqual({ blocked: [], monitored: [own] });
    expect((await report(payingUrl, paying)).body.data).toEqual({ blocked: [], monitored: [paying.toUpperCase()] });
    expect((await read(local(payingUrl))).name).toBe('Fixture source');
    expect((await read(local(strangerUrl))).apps[0]!.bundleIdentifier).toBe(`blocked.${owner.source.source_id}`);
  });
});

describe('medium 2: a UDID was a claim, and the gate links published it', () => {
  test('links carry no UDID; a UDID seen anywhere reads no unlock; a device-bound URL does', async () => {
    const owner = await makeOwner();
    await publish(owner, { name: 'Premium', lock: 1, downloadUrl: 'https://dl.example.com/p.ipa' });
    const customer = newUdid();
    expect((await api.request('GET', `${feedPath(owner.source.source_id)}?udid=${customer}&code=${await unlockCode(owner)}`)).body.code).toBe(1);

    // whoever types the customer's UDID is only claiming it: no unlock shows, no locked link works, and the
    // links name no UDID another reader could take
    const claimed = await read(`${feedPath(owner.source.source_id)}?udid=${customer}`);
    expect(feedProblems(claimed)).toEqual(NO_PROBLEMS);
    for (const link of downloadUrls(claimed)) expect(link.toUpperCase()).not.toContain(customer.toUpperCase());
    expect(claimed.apps[0]!.lock).toBe('1');
    expect((await download(claimed.apps[0]!.downloadURL)).body).toMatchObject({ code: 403, data: { error: 'locked' } });

    // the customer's own device-bound URL has the unlock
    const url = await deviceUrl(owner, customer);
    const mine = await read(local(url));
    expect(mine.apps[0]!.lock).toBe('0');
    for (const link of downloadUrls(mine)) {
      expect(link.toUpperCase()).not.toContain(customer.toUpperCase());
      expect(new URL(link).searchParams.has('udid')).toBe(false);
    }
    expect((await download(mine.apps[0]!.downloadURL)).headers.get('location')).toBe('https://dl.example.com/p.ipa');
    // a guessed or altered device key proves nothing
    const forged = await read(`${feedPath(owner.source.source_id)}?dk=${'A'.repeat(32)}&udid=${customer}`);
    expect(forged.apps[0]!.lock).toBe('1');
  });

  test('a blocked or disabled device cannot get an unlocked app by claiming another UDID, and kid binds nothing', async () => {
    const owner = await makeOwner();
    await publish(owner, { name: 'Premium', lock: 1 });
    const paying = newUdid();
    const payingUrl = await deviceUrl(owner, paying);
    expect((await api.request('GET', `${local(payingUrl)}&code=${await unlockCode(owner)}`)).body.code).toBe(1);
    const blocked = newUdid();
    await api.request('PUT', manage(owner.source.source_id, `blocklist/${blocked}`), { headers: owner.bearer });
    const bad = await read(`${feedPath(owner.source.source_id)}?udid=${paying}`);
    expect(bad.apps[0]!.lock).toBe('1');
    // an owner's certificate id read anonymously puts no UDID in the links
    const device = await importDevice({ userId: owner.user.userId, udid: newUdid() }, 1_700_000_000);
    const byKid = await read(`${feedPath(owner.source.source_id)}?kid=${device.kid}`);
    for (const link of downloadUrls(byKid)) expect(link.toUpperCase()).not.toContain(device.udid.toUpperCase());
    expect((await download(byKid.apps[0]!.downloadURL)).body).toMatchObject({ data: { error: 'udid_required' } });
  });

  test('device_proof required: a bare UDID or no UDID gets the placeholder, a device-bound URL the feed; revoking ends the URL', async () => {
    const owner = await makeOwner();
    await publish(owner, { name: 'Game', downloadUrl: 'https://dl.example.com/g.ipa' });
    await settings(owner, { device_proof: 'required' });
    const udid = newUdid();
    const url = await deviceUrl(owner, udid);
    for (const path of [`${feedPath(owner.source.source_id)}?udid=${udid}`, feedPath(owner.source.source_id), `${feedPath(owner.source.source_id)}?dk=${'B'.repeat(32)}`]) {
      const feed = await read(path, { 'X-Lang': 'en' });
      expect(feedProblems(feed)).toEqual(NO_PROBLEMS);
      expect(feed.name).toBe(translate('en', 'proof_required_title'));
      expect(feed.apps).toHaveLength(1);
      expect(JSON.stringify(feed)).not.toContain('dl.example.com');
      expect((await download(feed.apps[0]!.downloadURL)).status).toBe(403);
    }
    const proven = await read(local(url));
    expect(feedProblems(proven)).toEqual(NO_PROBLEMS);
    expect(proven.apps.map((a) => a.name)).toEqual(['Game']);
    expect((await download(proven.apps[0]!.downloadURL)).headers.get('location')).toBe('https://dl.example.com/g.ipa');
    // the same URL again: the same key; revoked: the old URL proves nothing, a new one is issued
    expect(await deviceUrl(owner, udid.toLowerCase())).toBe(url);
    const revoked = await api.request('DELETE', `${manage(owner.source.source_id, 'device-url')}?udid=${udid}`, { headers: owner.bearer });
    expect(revoked.body).toMatchObject({ code: 1, data: { udid: udid.toUpperCase(), revoked: true } });
    expect((await read(local(url), { 'X-Lang': 'en' })).name).toBe(translate('en', 'proof_required_title'));
    expect(await deviceUrl(owner, udid)).not.toBe(url);
    // a blocked device cannot escape by hiding: with its key, it reads the blocked document
    await api.request('PUT', manage(owner.source.source_id, `blocklist/${udid}`), { headers: owner.bearer });
    expect((await read(local(await deviceUrl(owner, udid)), { 'X-Lang': 'en' })).name).toBe(translate('en', 'blocked_title'));
  });

  test('device-url: bad UDIDs are 40002, someone else’s source 40001', async () => {
    const owner = await makeOwner();
    const stranger = await makeOwner();
    for (const q of ['', '?udid=nope', `?udid=${newUdid()}&udid=${newUdid()}`, `?udid=${newUdid()}&extra=1`]) {
      const res = await api.request('GET', `${manage(owner.source.source_id, 'device-url')}${q}`, { headers: owner.bearer });
      expect([res.status, res.body.code]).toEqual([400, 40002]);
    }
    const res = await api.request('GET', `${manage(owner.source.source_id, 'device-url')}?udid=${newUdid()}`, { headers: stranger.bearer });
    expect([res.status, res.body.code]).toEqual([404, 40001]);
  });
});

describe('public limits with a ceiling', () => {
  test('unlock attempts and reports have a per-source ceiling per minute that no rotation of addresses gets around', async () => {
    const { routeFor } = await import('../../shared/routes');
    const { ipBucketKey } = await import('../../shared/http/middlewares/rate-limit');
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient } = await import('../../shared/db/client');
    const { tableName } = await import('../../shared/db/table-names');
    const owner = await makeOwner();
    const ceilings = routeFor('source-feed').ipLimits!.filter((l) => l.everyone);
    expect(ceilings.map((l) => [l.operation, l.window])).toEqual([['unlock', 'minute'], ['report', 'minute']]);
    // the source's unlock ceiling spent (by whatever addresses): this caller, never seen before, is refused too
    const unlockCeiling = ceilings[0]!;
    await atMinuteStart(async (start) => {
      const key = ipBucketKey({ function: 'source-feed' }, unlockCeiling, '203.0.113.9', { source_id: owner.source.source_id }, start);
      expect(key).toContain('ip:*');
      await documentClient().send(new PutCommand({ TableName: tableName('rateLimits'), Item: { bucket: key, count: unlockCeiling.limit, expires_at: 4_000_000_000 } }));
      const refused = await api.request('GET', `${feedPath(owner.source.source_id)}?udid=${newUdid()}&code=${await unlockCode(owner)}`);
      expect([refused.status, refused.body.code, refused.body.data?.error]).toEqual([429, 0, 'rate_limited']);
      // feed reads and other sources are untouched
      expect((await api.request('GET', feedPath(owner.source.source_id))).status).toBe(200);
    });
  });
});

describe('low findings', () => {
  test('a gate redirect always has a valid Location: the stored URL as URL parsing writes it', async () => {
    const owner = await makeOwner();
    await publish(owner, { name: 'Spaced', downloadUrl: 'https://dl.example.com/my app/é.ipa' });
    const feed = await read(`${feedPath(owner.source.source_id)}?udid=${newUdid()}`);
    const res = await download(feed.apps[0]!.downloadURL);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://dl.example.com/my%20app/%C3%A9.ipa');
  });
});
