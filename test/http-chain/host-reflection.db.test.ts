/**
 * Issue 33, low finding: a host is never reflected into a document unless it is the tenant's. A caller's
 * `Host` (or `X-Forwarded-Host`) naming anything else must not reach a feed's links, a device URL or the
 * capture profile: those documents are read (and cached) by others. Links then use the domain the API was
 * reached on as API Gateway reports it; locally, the address the local server received the request on.
 */
import { startTestApi, type TestApi } from '../support/api';
import { makeDraft, makeOwner, makeTenant, newUdid, type Owner } from '../support/fixtures';
import { createUser } from '../../shared/domain/users/user-service';
import { createSource } from '../../shared/domain/sources/source-admin';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const FOREIGN = 'evil.example';
const manage = (owner: Owner, rest: string) => `/api/appstore/manage/sources/${owner.source.source_id}/${rest}`;

async function publishedSource(owner: Owner, host?: string): Promise<void> {
  const app = await makeDraft(owner.source.source_id, { name: 'Player', downloadUrl: 'https://dl.example.com/p.ipa' });
  expect((await api.request('POST', manage(owner, `apps/${app.id}/publish`), { headers: { ...owner.bearer, ...(host ? { Host: host } : {}) } })).body.code).toBe(1);
}

test('a foreign Host or X-Forwarded-Host on the default tenant: the feed’s links are on the API’s own address, never that host', async () => {
  const owner = await makeOwner();
  await publishedSource(owner);
  const own = new URL(api.url).host;
  for (const headers of <Record<string, string>[]>[{ Host: FOREIGN }, { Host: `${FOREIGN}:8443` }, { 'X-Forwarded-Host': FOREIGN }, { Host: FOREIGN, 'X-Forwarded-Host': FOREIGN }]) {
    const res = await api.request('GET', `/api/rjy/${owner.source.source_id}/appstore?udid=${newUdid()}`, { headers });
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(FOREIGN);
    const feed = res.body as unknown as { sourceURL: string; identifier: string; apps: { downloadURL: string }[] };
    expect(new URL(feed.sourceURL).host).toBe(own);
    expect(new URL(feed.apps[0]!.downloadURL).host).toBe(own);
  }
});

test('the owner’s device URL and the capture profile do not carry a foreign host either', async () => {
  const owner = await makeOwner();
  const device = await api.request('GET', `${manage(owner, 'device-url')}?udid=${newUdid()}`, { headers: { ...owner.bearer, Host: FOREIGN } });
  expect(device.body.code).toBe(1);
  expect(device.body.data!.url as string).not.toContain(FOREIGN);
  const profile = await api.request('GET', `/api/rjy/${owner.source.source_id}/udid.mobileconfig`, { headers: { Host: FOREIGN } });
  expect(profile.status).toBe(200);
  expect(JSON.stringify(profile.body)).not.toContain(FOREIGN);
});

test('the tenant’s own domain is used as the caller sent it', async () => {
  const { tenantId, host } = await makeTenant();
  const { user, token } = await createUser({ tenantId, name: 'owner', balance: 0 }, 1_700_000_000);
  const source = await createSource({ userId: user.userId, name: 'Shop' }, 1_700_000_000);
  const owner: Owner = { user, token, source, bearer: { Authorization: `Bearer ${token}` } };
  const res = await api.request('GET', `/api/rjy/${source.source_id}/appstore`, { headers: { Host: host } });
  expect(res.status).toBe(200);
  expect(new URL((res.body as unknown as { sourceURL: string }).sourceURL).host).toBe(host);
  const device = await api.request('GET', `${manage(owner, 'device-url')}?udid=${newUdid()}`, { headers: { ...owner.bearer, Host: host } });
  expect(new URL(device.body.data!.url as string).host).toBe(host);
});

test('issue 39: a port the caller adds to the tenant’s own domain reaches no link — feed (publicly cached), device URL, profile callback, install page', async () => {
  const { tenantId, host } = await makeTenant();
  const { user, token } = await createUser({ tenantId, name: 'owner', balance: 0 }, 1_700_000_000);
  const source = await createSource({ userId: user.userId, name: 'Shop' }, 1_700_000_000);
  const owner: Owner = { user, token, source, bearer: { Authorization: `Bearer ${token}` } };
  await publishedSource(owner, host);
  const poisoned = { Host: `${host}:65535` };
  const feed = await api.request('GET', `/api/rjy/${source.source_id}/appstore`, { headers: poisoned });
  expect(feed.status).toBe(200);
  expect(feed.headers.get('cache-control')).toContain('public');
  const document = feed.body as unknown as { sourceURL: string; apps: { downloadURL: string }[] };
  expect(JSON.stringify(document)).not.toContain(':65535');
  expect(new URL(document.sourceURL).host).toBe(host);
  expect(new URL(document.apps[0]!.downloadURL).host).toBe(host);
  const device = await api.request('GET', `${manage(owner, 'device-url')}?udid=${newUdid()}`, { headers: { ...owner.bearer, ...poisoned } });
  expect(new URL(device.body.data!.url as string).host).toBe(host);
  const profile = await api.request('GET', `/api/rjy/${source.source_id}/udid.mobileconfig`, { headers: poisoned });
  expect(profile.status).toBe(200);
  expect(String(profile.body.raw)).toContain(`<string>http://${host}/api/udid/callback</string>`);
  expect(String(profile.body.raw)).not.toContain(':65535');
  const page = await api.request('GET', `/api/rjy/${source.source_id}/install`, { headers: poisoned });
  expect(String(page.body.raw)).toContain(`href="http://${host}/api/rjy/${source.source_id}/udid.mobileconfig"`);
  expect(String(page.body.raw)).not.toContain(':65535');
});
