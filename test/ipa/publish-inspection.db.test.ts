/**
 * Inspection as a reseller meets it, over the API: a draft's IPA is read when it is created, publishing
 * refuses what would not install, the feed carries what the IPA says, an unchanged file costs one HEAD, and
 * link health notices a replaced file.
 */
import { startTestApi, type TestApi } from '../support/api';
import { makeOwner, makeTenant, type Owner } from '../support/fixtures';
import { altStoreProblems } from '../support/feed-validators';
import { buildIpa, defaultInfo, fileHost, machO, sha256, type HostedFile } from '../support/ipa-builder';
import { startLocalServer, type LocalServer } from '../support/local-server';
import { getApp } from '../../shared/db/repositories/app-repository';
import { updateTenantSettings } from '../../shared/db/repositories/tenant-repository';
import { setInspectionTestHooks } from '../../shared/domain/ipa/inspection-service';
import { runIpaInspector } from '../../shared/domain/ipa/inspection-job';
import { clearTenantCache } from '../../shared/domain/tenants/host-tenant';
import { instrumentDynamoDb, sample } from '../bench/harness';
import { createEveryTable } from '../support/tables';

let api: TestApi;
let host: LocalServer;
const files = new Map<string, HostedFile>();
let previous: string | undefined;
beforeAll(async () => {
  previous = process.env.IPA_INSPECTION;
  process.env.IPA_INSPECTION = 'on';
  api = await startTestApi();
  await createEveryTable(); // its calls are counted
  host = await startLocalServer(fileHost(files));
});
afterAll(async () => {
  process.env.IPA_INSPECTION = previous;
  setInspectionTestHooks({});
  await Promise.all([api.close(), host.close()]);
});
afterEach(() => setInspectionTestHooks({}));

let counter = 0;
function serve(file: HostedFile): { url: string; path: string } {
  const path = `/builds/app${++counter}.ipa`;
  files.set(path, file);
  return { url: `${host.url}${path}`, path };
}

const appsPath = (owner: Owner) => `/api/appstore/manage/sources/${owner.source.source_id}/apps`;
const publish = (owner: Owner, appId: number, headers: Record<string, string> = {}) =>
  api.request('POST', `${appsPath(owner)}/${appId}/publish`, { headers: { ...owner.bearer, ...headers } });

async function createDraft(owner: Owner, url: string, fields: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const res = await api.request('POST', appsPath(owner), {
    headers: { ...owner.bearer, ...headers },
    json: {
      name: 'Player',
      version: '2.1.0',
      bundle_identifier: 'com.example.player',
      developer_name: 'Example Studio',
      icon_url: 'https://cdn.example.com/icon.png',
      download_url: url,
      ...fields,
    },
  });
  expect(res.body.code).toBe(1);
  return res.body.data as { id: number; inspection: Record<string, unknown> };
}

describe('publishing reads the IPA', () => {
  test('a matching IPA: the draft shows what was read, publishing succeeds, the feed carries sha256, buildVersion, minOSVersion and appPermissions', async () => {
    const owner = await makeOwner();
    const ipa = await buildIpa({ plist: 'binary' });
    const { url } = serve({ body: ipa, etag: '"build-210"' });
    const draft = await createDraft(owner, url, { size: 5 });
    expect(draft.inspection).toEqual({
      state: 'ok',
      sha256: sha256(ipa),
      size: ipa.length,
      bundle_identifier: 'com.example.player',
      version: '2.1.0',
      build_version: '210',
      min_os_version: '15.0',
      display_name: 'Player',
      entitlements: ['application-identifier', 'get-task-allow'],
      privacy: { NSCameraUsageDescription: 'Scan codes with the camera', NSPhotoLibraryUsageDescription: 'Save pictures to your library' },
      inspected_at: expect.any(Number),
    });

    const published = await publish(owner, draft.id);
    expect(published.body).toMatchObject({ code: 1, data: { publish_status: 'published' } });
    // The size is the file's, whatever the reseller typed.
    expect((await getApp(owner.source.source_id, draft.id))?.size).toBe(ipa.length);

    const feed = await api.request('GET', `/api/rjy/${owner.source.source_id}/appstore`);
    const app = (feed.body.apps as Array<Record<string, unknown>>)[0]!;
    expect(app.appPermissions).toEqual({
      entitlements: ['application-identifier', 'get-task-allow'],
      privacy: { NSCameraUsageDescription: 'Scan codes with the camera', NSPhotoLibraryUsageDescription: 'Save pictures to your library' },
    });
    expect((app.versions as unknown[])[0]).toMatchObject({ version: '2.1.0', buildVersion: '210', minOSVersion: '15.0', sha256: sha256(ipa), size: ipa.length });
    // The ESign family reads only the flat fields: the size is the file's there too.
    expect(app.size).toBe(ipa.length);
    expect(altStoreProblems(feed.body)).toEqual([]);
  });

  test('a version that differs: 40003 ipa_mismatch naming both values, in each language; nothing published', async () => {
    const owner = await makeOwner();
    const { url } = serve({ body: await buildIpa(), etag: '"x"' });
    const draft = await createDraft(owner, url, { version: '2.2.0' });
    const en = await publish(owner, draft.id, { 'X-Lang': 'en' });
    expect(en.status).toBe(409);
    expect(en.body).toMatchObject({
      code: 40003,
      msg: "The IPA does not match the app: the IPA's version is 2.1.0, the app says 2.2.0",
      data: { error: 'ipa_mismatch', fields: ['version'], mismatches: [{ field: 'version', app: '2.2.0', ipa: '2.1.0' }] },
    });
    const zh = await publish(owner, draft.id, { 'X-Lang': 'zh' });
    expect(zh.body.msg).toBe('IPA 与应用信息不符：IPA 的 version 是 2.1.0，应用填写的是 2.2.0');
    expect((await getApp(owner.source.source_id, draft.id))?.publish_status).toBe('draft');
  });

  test('a bundle identifier that differs names the field and both identifiers', async () => {
    const owner = await makeOwner();
    const { url } = serve({ body: await buildIpa({ info: defaultInfo({ CFBundleIdentifier: 'com.other.player' }) }) });
    const draft = await createDraft(owner, url);
    const res = await publish(owner, draft.id, { 'X-Lang': 'es' });
    expect(res.body).toMatchObject({ code: 40003, data: { error: 'ipa_mismatch', fields: ['bundle_identifier'] } });
    expect(res.body.msg).toContain('com.other.player');
    expect(res.body.msg).toContain('com.example.player');
  });

  test('not an IPA → ipa_invalid; an origin error → ipa_unreachable with its status; over the tenant cap → ipa_invalid with the limit', async () => {
    const owner = await makeOwner();
    const html = await createDraft(owner, serve({ body: Buffer.from('<html>not here</html>') }).url);
    expect((await publish(owner, html.id, { 'X-Lang': 'en' })).body).toMatchObject({
      code: 40003,
      msg: 'The file at the download URL is not an installable IPA',
      data: { error: 'ipa_invalid', fields: ['download_url'] },
    });
    const gone = await createDraft(owner, serve({ body: Buffer.alloc(0), status: 410 }).url);
    expect((await publish(owner, gone.id)).body).toMatchObject({ code: 40003, data: { error: 'ipa_unreachable', fields: ['download_url'], status: 410 } });

    const tenant = await makeTenant('vi');
    await updateTenantSettings(tenant.tenantId, { settings: { ipaMaxBytes: 50_000 } });
    const small = await makeOwner({ tenantId: tenant.tenantId });
    const big = await createDraft(small, serve({ body: await buildIpa() }).url, {}, { Host: tenant.host });
    expect(big.inspection).toMatchObject({ state: 'failed', error: 'too_large' });
    const res = await publish(small, big.id, { Host: tenant.host });
    expect(res.body).toMatchObject({ code: 40003, msg: 'IPA lớn hơn giới hạn kích thước (50000 byte)', data: { error: 'ipa_invalid', limit: 50_000 } });
  });

  test('a slow origin: the draft is pending, publish answers ipa_pending with a retry hint, the background job then decides', async () => {
    const owner = await makeOwner();
    setInspectionTestHooks({ requestBudgetMs: 300 });
    const ipa = await buildIpa({ executable: machO({ codeBytes: 20_000 }) });
    const slow = serve({ body: ipa, etag: '"slow"', drip: { bytes: 8192, everyMs: 100 } });
    const draft = await createDraft(owner, slow.url);
    expect(draft.inspection).toEqual({ state: 'pending', requested_at: expect.any(Number) });
    const pending = await publish(owner, draft.id, { 'X-Lang': 'en' });
    expect(pending.body).toMatchObject({ code: 40003, msg: 'The IPA is still being inspected; retry publishing in 60 seconds', data: { error: 'ipa_pending', retry_after: 60, fields: ['download_url'] } });

    // The job has a Lambda's run: this file fits it.
    await runIpaInspector(1_800_000_000);
    expect((await getApp(owner.source.source_id, draft.id))?.ipa).toMatchObject({ state: 'ok', facts: { sha256: sha256(ipa) } });
    expect((await publish(owner, draft.id)).body.code).toBe(1);

    // A truly slow origin: the job refuses it, and publishing says the origin is too slow.
    const crawl = serve({ body: ipa, etag: '"crawl"', drip: { bytes: 512, everyMs: 200 } });
    const second = await createDraft(owner, crawl.url, { version: '2.1.0', bundle_identifier: 'com.example.second' });
    await runIpaInspector(1_800_000_000, { jobBudgetMs: 500 });
    const refused = await publish(owner, second.id, { 'X-Lang': 'en' });
    expect(refused.body).toMatchObject({ code: 40003, msg: 'The IPA could not be downloaded: the download URL is too slow', data: { error: 'ipa_unreachable' } });
  });
});

describe('ahead of the download', () => {
  test('re-publishing an unchanged file costs one HEAD; a changed file is read again', async () => {
    const owner = await makeOwner();
    const ipa = await buildIpa();
    const { url, path } = serve({ body: ipa, etag: '"same"', lastModified: 'Tue, 24 Nov 2026 10:00:00 GMT' });
    const draft = await createDraft(owner, url);
    expect((await publish(owner, draft.id)).body.code).toBe(1);
    await api.request('POST', `${appsPath(owner)}/${draft.id}/unpublish`, { headers: owner.bearer });

    // The cached inspection is what keeps publish at its floor: token, rate limit, one batch read, one transaction.
    const cache = process.env.TENANT_CACHE_SECONDS;
    process.env.TENANT_CACHE_SECONDS = '30';
    clearTenantCache();
    instrumentDynamoDb();
    await api.request('GET', `/api/appstore/manage/sources/${owner.source.source_id}/health`, { headers: owner.bearer });
    const before = host.requests.length;
    const { calls } = await sample(async () => {
      expect((await publish(owner, draft.id)).body.code).toBe(1);
    });
    process.env.TENANT_CACHE_SECONDS = cache;
    expect(host.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([`HEAD ${path}`]);
    const prefix = process.env.TABLE_PREFIX ?? '';
    expect(calls.map((c) => `${c.table.replace(prefix, '')} ${c.command}`).sort()).toEqual(['(none) BatchGetItem', '(none) TransactWriteItems', 'rate-limits UpdateItem', 'tokens GetItem']);

    // The file behind the URL changes to one with another version: the next publish reads it and refuses.
    await api.request('POST', `${appsPath(owner)}/${draft.id}/unpublish`, { headers: owner.bearer });
    files.set(path, { body: await buildIpa({ info: defaultInfo({ CFBundleShortVersionString: '9.9' }) }), etag: '"changed"' });
    const mark = host.requests.length;
    const res = await publish(owner, draft.id);
    expect(res.body).toMatchObject({ code: 40003, data: { error: 'ipa_mismatch', mismatches: [{ field: 'version', app: '2.1.0', ipa: '9.9' }] } });
    expect(host.requests.slice(mark).map((r) => r.method)).toEqual(['HEAD', 'GET']);
  });
});

describe('link health', () => {
  test('a published file replaced behind the app is flagged file_changed', async () => {
    const owner = await makeOwner();
    const { url, path } = serve({ body: await buildIpa(), etag: '"first"' });
    const draft = await createDraft(owner, url);
    expect((await publish(owner, draft.id)).body.code).toBe(1);
    const check = () => api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/health/check`, { headers: owner.bearer });

    expect((await check()).body.data).toMatchObject({ apps: [{ app_id: draft.id, health: 'ok', file_changed: false }] });
    files.set(path, { body: await buildIpa({ executable: machO({ codeBytes: 1234 }) }), etag: '"second"' });
    expect((await check()).body.data).toMatchObject({ apps: [{ app_id: draft.id, health: 'ok', file_changed: true }] });
    const seen = await api.request('GET', `/api/appstore/manage/sources/${owner.source.source_id}/health`, { headers: owner.bearer });
    expect(seen.body.data).toMatchObject({ apps: [{ app_id: draft.id, file_changed: true }] });
  });
});
