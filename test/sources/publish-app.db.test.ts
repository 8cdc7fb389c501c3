import { startTestApi, type TestApi } from '../support/api';
import { makeDraft, makeOwner, makeTenant } from '../support/fixtures';
import { getApp } from '../../shared/db/repositories/app-repository';
import { updateTenantSettings } from '../../shared/db/repositories/tenant-repository';
import { expireToken, rotateToken } from '../../shared/domain/users/user-service';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const publishPath = (sourceId: string, appId: number | string) => `/api/appstore/manage/sources/${sourceId}/apps/${appId}/publish`;

describe('publish app draft', () => {
  test('publishes a complete draft and answers only the allowlisted fields, in English', async () => {
    const owner = await makeOwner();
    const draft = await makeDraft(owner.source.source_id, { name: 'Player', version: '2.0' });
    const res = await api.request('POST', publishPath(owner.source.source_id, draft.id), { headers: { ...owner.bearer, 'X-Lang': 'en' } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(1);
    expect(res.body.msg).toBe('Success');
    expect(typeof res.body.time).toBe('number');
    expect(Math.abs((res.body.time as number) - Date.now() / 1000)).toBeLessThan(60);
    expect(res.body.data).toEqual({
      id: draft.id,
      source_id: owner.source.source_id,
      name: 'Player',
      version: '2.0',
      download_url: 'https://downloads.example.com/fixture.ipa',
      status: 1,
      publish_status: 'published',
    });
    expect(res.body).not.toHaveProperty('ip');
    expect((await getApp(owner.source.source_id, draft.id))?.publish_status).toBe('published');
  });

  test('answers in Russian and refuses a second publish of the same app (40003, HTTP 409)', async () => {
    const owner = await makeOwner();
    const draft = await makeDraft(owner.source.source_id);
    await api.request('POST', publishPath(owner.source.source_id, draft.id), { headers: owner.bearer });
    const res = await api.request('POST', publishPath(owner.source.source_id, draft.id), { headers: { ...owner.bearer, 'X-Lang': 'ru' } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 40003, msg: 'Приложение не является черновиком (уже опубликовано)', data: { error: 'already_published' } });
  });

  test('refuses an incomplete draft (no http(s) download URL) and leaves it a draft', async () => {
    const owner = await makeOwner();
    const draft = await makeDraft(owner.source.source_id, { downloadUrl: 'ftp://downloads.example.com/x.ipa' });
    const res = await api.request('POST', publishPath(owner.source.source_id, draft.id), { headers: { ...owner.bearer, 'X-Lang': 'en' } });
    expect(res.status).toBe(409);
    expect(res.body.data).toEqual({ error: 'draft_incomplete', fields: ['download_url'] });
    expect((await getApp(owner.source.source_id, draft.id))?.publish_status).toBe('draft');
  });

  test('refuses a draft whose bundle identifier and version are already published in the source', async () => {
    const owner = await makeOwner();
    const first = await makeDraft(owner.source.source_id, { name: 'Same', version: '1.0' });
    const second = await makeDraft(owner.source.source_id, { name: 'Same', version: '1.0' });
    const other = await makeDraft(owner.source.source_id, { name: 'Same', version: '1.1' });
    expect((await api.request('POST', publishPath(owner.source.source_id, first.id), { headers: owner.bearer })).body.code).toBe(1);
    const dup = await api.request('POST', publishPath(owner.source.source_id, second.id), { headers: { ...owner.bearer, 'X-Lang': 'es' } });
    expect(dup.body).toMatchObject({ code: 40003, data: { error: 'duplicate_version' } });
    expect(dup.body.msg).toBe('Ya hay una aplicación publicada en esta fuente con el mismo identificador de paquete y versión');
    expect((await getApp(owner.source.source_id, second.id))?.publish_status).toBe('draft');
    expect((await api.request('POST', publishPath(owner.source.source_id, other.id), { headers: owner.bearer })).body.code).toBe(1);
  });

  test("enforces the tenant plan's published-app quota per source", async () => {
    const tenant = await makeTenant();
    await updateTenantSettings(tenant.tenantId, { settings: { publishedAppsPerSource: 1 } });
    const owner = await makeOwner({ tenantId: tenant.tenantId });
    const a = await makeDraft(owner.source.source_id, { name: 'A' });
    const b = await makeDraft(owner.source.source_id, { name: 'B' });
    const headers = { ...owner.bearer, Host: tenant.host };
    expect((await api.request('POST', publishPath(owner.source.source_id, a.id), { headers })).body.code).toBe(1);
    const res = await api.request('POST', publishPath(owner.source.source_id, b.id), { headers });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 40003, msg: "The plan's limit for this source is reached (1)", data: { error: 'quota_exceeded', limit: 1 } });
  });

  test('two concurrent publishes of one draft: exactly one success and one 40003', async () => {
    const owner = await makeOwner();
    const draft = await makeDraft(owner.source.source_id);
    const results = await Promise.all([1, 2, 3, 4].map(() => api.request('POST', publishPath(owner.source.source_id, draft.id), { headers: owner.bearer })));
    expect(results.map((r) => r.body.code).sort()).toEqual([1, 40003, 40003, 40003]);
  });

  test("another user's source and a missing source answer 40001 (HTTP 404); another tenant's site 10 (unknown token there)", async () => {
    const owner = await makeOwner();
    const stranger = await makeOwner();
    const draft = await makeDraft(owner.source.source_id);
    const foreign = await api.request('POST', publishPath(owner.source.source_id, draft.id), { headers: { ...stranger.bearer, 'X-Lang': 'en' } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 40001, msg: 'Source not found or not owned by you on this site', data: { error: 'source_not_found' } });
    const missing = await api.request('POST', publishPath('snope', 1), { headers: owner.bearer });
    expect(missing.body.code).toBe(40001);
    const otherSite = await makeTenant();
    const wrongTenant = await api.request('POST', publishPath(owner.source.source_id, draft.id), { headers: { ...owner.bearer, Host: otherSite.host } });
    // A token is valid only on its own tenant's site: elsewhere it is an unknown token.
    expect([wrongTenant.status, wrongTenant.body.code]).toEqual([401, 10]);
    expect((await getApp(owner.source.source_id, draft.id))?.publish_status).toBe('draft');
  });

  test('an app id that is not in the source answers 40004; a malformed one 40002; one no id could have 404', async () => {
    const owner = await makeOwner();
    const missing = await api.request('POST', publishPath(owner.source.source_id, 999), { headers: { ...owner.bearer, 'X-Lang': 'en' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 40004, data: { error: 'app_not_found' } });
    for (const bad of ['1x', '0', '-1']) {
      const res = await api.request('POST', publishPath(owner.source.source_id, bad), { headers: owner.bearer });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 40002, data: { error: 'invalid_value', fields: ['app_id'] } });
    }
    // Characters outside letters, digits, `_` and `-` cannot be in any id: the app is simply not there.
    const dotted = await api.request('POST', publishPath(owner.source.source_id, '1.5'), { headers: owner.bearer });
    expect(dotted.status).toBe(404);
    expect(dotted.body).toMatchObject({ code: 40004, data: { error: 'app_not_found' } });
  });

  test('source_id and app_id may be repeated in the body or query, and must then match the path', async () => {
    const owner = await makeOwner();
    const draft = await makeDraft(owner.source.source_id);
    const other = await makeDraft(owner.source.source_id, { name: 'Other' });
    const mismatch = await api.request('POST', publishPath(owner.source.source_id, draft.id), { headers: owner.bearer, json: { source_id: owner.source.source_id, app_id: other.id } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({ code: 40002, data: { error: 'invalid_value', fields: ['app_id'] } });
    expect((await getApp(owner.source.source_id, other.id))?.publish_status).toBe('draft');
    const echoed = await api.request('POST', `${publishPath(owner.source.source_id, draft.id)}?app_id=${draft.id}`, { headers: owner.bearer, json: { source_id: owner.source.source_id } });
    expect(echoed.body).toMatchObject({ code: 1, data: { id: draft.id, publish_status: 'published' } });
  });

  test('administrator-only and unknown parameters are refused and nothing is published', async () => {
    const owner = await makeOwner();
    const draft = await makeDraft(owner.source.source_id);
    const admin = await api.request('POST', `${publishPath(owner.source.source_id, draft.id)}?is_official=1`, { headers: { ...owner.bearer, 'X-Lang': 'en' } });
    expect(admin.body).toMatchObject({ code: 40002, data: { error: 'admin_field', fields: ['is_official'] } });
    const unknown = await api.request('POST', publishPath(owner.source.source_id, draft.id), { headers: owner.bearer, json: { force: true } });
    expect(unknown.body).toMatchObject({ code: 40002, data: { error: 'unknown_field', fields: ['force'] } });
    expect((await getApp(owner.source.source_id, draft.id))?.publish_status).toBe('draft');
  });
});

describe('bearer authentication', () => {
  test('missing, malformed and unknown tokens answer 10 with HTTP 401', async () => {
    const owner = await makeOwner();
    const draft = await makeDraft(owner.source.source_id);
    for (const headers of [{}, { Authorization: 'Basic abc' }, { Authorization: 'Bearer not-a-token' }] as Record<string, string>[]) {
      const res = await api.request('POST', publishPath(owner.source.source_id, draft.id), { headers: { ...headers, 'X-Lang': 'en' } });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 10, msg: 'Invalid token', data: { error: 'token_invalid' } });
    }
  });

  test('a rotated token answers 10 at once and the new one works', async () => {
    const owner = await makeOwner();
    const draft = await makeDraft(owner.source.source_id);
    const fresh = await rotateToken(owner.user.userId);
    const old = await api.request('POST', publishPath(owner.source.source_id, draft.id), { headers: owner.bearer });
    expect(old.body.code).toBe(10);
    const res = await api.request('POST', publishPath(owner.source.source_id, draft.id), { headers: { Authorization: `Bearer ${fresh}` } });
    expect(res.body.code).toBe(1);
  });

  test('an expired token answers 11 with HTTP 401, localized', async () => {
    const owner = await makeOwner();
    await expireToken(owner.user.userId, Math.floor(Date.now() / 1000) - 1);
    const res = await api.request('POST', publishPath(owner.source.source_id, 1), { headers: { ...owner.bearer, 'X-Lang': 'zh-TW' } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 11, msg: '權杖已過期', data: { error: 'token_expired' } });
  });
});
