import { createServer, type Server } from 'node:http';
import { startTestApi, type TestApi } from '../support/api';
import { makeDraft, makeOwner, makeTenant } from '../support/fixtures';
import { getApp } from '../../shared/db/repositories/app-repository';
import { updateTenantSettings } from '../../shared/db/repositories/tenant-repository';

let api: TestApi;
let origin: Server;
let originUrl = '';
beforeAll(async () => {
  api = await startTestApi();
  // A download host for the size lookup: one build with a length, one without.
  origin = createServer((req, res) => {
    if (req.url === '/sized.ipa') res.writeHead(200, { 'Content-Length': '4242' });
    else if (req.url === '/moved.ipa') res.writeHead(302, { Location: '/sized.ipa' });
    else res.writeHead(200, { 'Transfer-Encoding': 'chunked' });
    res.end();
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const address = origin.address();
  originUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await api.close();
  await new Promise((resolve) => origin.close(resolve));
});

const appsPath = (sourceId: string) => `/api/appstore/manage/sources/${sourceId}/apps`;
const appPath = (sourceId: string, appId: number | string) => `${appsPath(sourceId)}/${appId}`;

const complete = {
  name: 'Player',
  version: '1.0',
  download_url: 'https://dl.example.com/player-1.0.ipa',
  bundle_identifier: 'com.example.player',
  developer_name: 'Example Studio',
  description: 'Plays things.\nLoudly.',
  icon_url: 'https://dl.example.com/player.png',
  size: 2048,
  version_description: 'First',
  tint_color: '#00aaFF',
  type: 1,
  lock: 0,
  min_os_version: '15.0',
};

describe('creating, editing and unpublishing apps', () => {
  test('a draft is created with every field, answered with the allowlisted view, then published', async () => {
    const owner = await makeOwner();
    const res = await api.request('POST', appsPath(owner.source.source_id), { headers: { ...owner.bearer, 'X-Lang': 'en' }, json: complete });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: 1,
      source_id: owner.source.source_id,
      status: 0,
      publish_status: 'draft',
      ...complete,
      tint_color: '00aaFF',
      // The suite runs with IPA inspection off (its download hosts do not exist): nothing was read.
      inspection: { state: 'none' },
      max_os_version: '',
      screenshots: { iphone: [], ipad: [] },
      app_permissions: { entitlements: [], privacy: {} },
    });
    const published = await api.request('POST', `${appPath(owner.source.source_id, 1)}/publish`, { headers: owner.bearer });
    expect(published.body).toMatchObject({ code: 1, data: { publish_status: 'published' } });
  });

  test('form bodies and query strings work too; strings become integers strictly', async () => {
    const owner = await makeOwner();
    const res = await api.request('POST', `${appsPath(owner.source.source_id)}?name=Form`, { headers: owner.bearer, form: { version: '2', size: '77', lock: '1' } });
    expect(res.body).toMatchObject({ code: 1, data: { name: 'Form', version: '2', size: 77, lock: 1 } });
  });

  test('bad values, unknown, read-only and administrator fields are refused with 40002 naming them; nothing is created', async () => {
    const owner = await makeOwner();
    const cases: [unknown, string, string[]][] = [
      [{ ...complete, bundle_identifier: 'nodots', size: '1.5', tint_color: 'red', icon_url: 'ftp://x/y.png' }, 'invalid_value', ['bundle_identifier', 'icon_url', 'size', 'tint_color']],
      [{ ...complete, name: 'x'.repeat(101) }, 'invalid_value', ['name']],
      [{ ...complete, developer_name: 'a\u0000b' }, 'invalid_value', ['developer_name']],
      [{ ...complete, description: 'x'.repeat(4001) }, 'invalid_value', ['description']],
      [{ ...complete, size: 2 ** 60 }, 'invalid_value', ['size']],
      [{ version: '1' }, 'invalid_value', ['name']],
      [{ ...complete, color: 'x' }, 'unknown_field', ['color']],
      [{ ...complete, publish_status: 'published' }, 'read_only_field', ['publish_status']],
      [{ ...complete, uid: 'u1' }, 'admin_field', ['uid']],
    ];
    for (const [json, error, fields] of cases) {
      const res = await api.request('POST', appsPath(owner.source.source_id), { headers: { ...owner.bearer, 'X-Lang': 'vi' }, json });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 40002, data: { error, fields } });
    }
    expect(await getApp(owner.source.source_id, 1)).toBeUndefined();
  });

  test("the plan's app quota per source is 40003 quota_exceeded", async () => {
    const tenant = await makeTenant();
    await updateTenantSettings(tenant.tenantId, { settings: { appsPerSource: 1 } });
    const owner = await makeOwner({ tenantId: tenant.tenantId });
    const headers = { ...owner.bearer, Host: tenant.host };
    expect((await api.request('POST', appsPath(owner.source.source_id), { headers, json: complete })).body.code).toBe(1);
    const res = await api.request('POST', appsPath(owner.source.source_id), { headers, json: complete });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 40003, data: { error: 'quota_exceeded', limit: 1 } });
  });

  test("another user's source is 40001; the owner's token through another tenant's site is an unknown token (10)", async () => {
    const owner = await makeOwner();
    const stranger = await makeOwner();
    const draft = await makeDraft(owner.source.source_id);
    const otherSite = await makeTenant();
    // Another tenant's site: the owner's token is an unknown token there (401, 10), like any invalid token.
    for (const [headers, status, code] of [[stranger.bearer, 404, 40001], [{ ...owner.bearer, Host: otherSite.host }, 401, 10]] as const) {
      expect((await api.request('POST', appsPath(owner.source.source_id), { headers, json: complete })).status).toBe(status);
      expect((await api.request('PATCH', appPath(owner.source.source_id, draft.id), { headers, json: { name: 'Mine' } })).body.code).toBe(code);
      expect((await api.request('POST', `${appPath(owner.source.source_id, draft.id)}/unpublish`, { headers })).body.code).toBe(code);
    }
    expect((await getApp(owner.source.source_id, draft.id))?.name).toBe('Fixture App');
  });

  test('a draft may change anything; a published app only its presentation; unpublish makes it a draft again', async () => {
    const owner = await makeOwner();
    const draft = await makeDraft(owner.source.source_id, { name: 'Edit me' });
    const edited = await api.request('PATCH', appPath(owner.source.source_id, draft.id), { headers: owner.bearer, json: { version: '9.9', size: 10 } });
    expect(edited.body).toMatchObject({ code: 1, data: { version: '9.9', size: 10, name: 'Edit me' } });
    const empty = await api.request('PATCH', appPath(owner.source.source_id, draft.id), { headers: owner.bearer, json: {} });
    expect(empty.body).toMatchObject({ code: 40002, data: { error: 'empty_update' } });
    await api.request('POST', `${appPath(owner.source.source_id, draft.id)}/publish`, { headers: owner.bearer });

    const allowed = await api.request('PATCH', appPath(owner.source.source_id, draft.id), { headers: owner.bearer, json: { description: 'New', lock: 1, tint_color: 'ABCDEF', developer_name: 'Dev', icon_url: 'https://dl.example.com/new.png', version_description: 'Notes' } });
    expect(allowed.body).toMatchObject({ code: 1, data: { description: 'New', lock: 1, publish_status: 'published' } });
    const refused = await api.request('PATCH', appPath(owner.source.source_id, draft.id), { headers: { ...owner.bearer, 'X-Lang': 'en' }, json: { version: '10', description: 'x' } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 40003, data: { error: 'published_immutable', fields: ['version'] } });
    expect((await getApp(owner.source.source_id, draft.id))?.version).toBe('9.9');

    const off = await api.request('POST', `${appPath(owner.source.source_id, draft.id)}/unpublish`, { headers: owner.bearer });
    expect(off.body).toMatchObject({ code: 1, data: { publish_status: 'draft', status: 0 } });
    const again = await api.request('POST', `${appPath(owner.source.source_id, draft.id)}/unpublish`, { headers: owner.bearer });
    expect(again.body).toMatchObject({ code: 40003, data: { error: 'not_published' } });
    // its release is free again: it can be published once more
    expect((await api.request('POST', `${appPath(owner.source.source_id, draft.id)}/publish`, { headers: owner.bearer })).body.code).toBe(1);
    expect((await api.request('PATCH', appPath(owner.source.source_id, 999), { headers: owner.bearer, json: { name: 'x' } })).body.code).toBe(40004);
    expect((await api.request('PATCH', appPath(owner.source.source_id, 'x1'), { headers: owner.bearer, json: { name: 'x' } })).status).toBe(404);
  });
});

describe('publish checks', () => {
  test('everything the clients need is required, each missing field named', async () => {
    const owner = await makeOwner();
    const created = await api.request('POST', appsPath(owner.source.source_id), { headers: owner.bearer, json: { name: 'Bare', version: '1' } });
    const res = await api.request('POST', `${appPath(owner.source.source_id, created.body.data!.id as number)}/publish`, { headers: { ...owner.bearer, 'X-Lang': 'en' } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 40003, data: { error: 'draft_incomplete', fields: ['download_url', 'bundle_identifier', 'developer_name', 'icon_url', 'size'] } });
  });

  test('a new version of a published bundle identifier is allowed; the same version is duplicate_version', async () => {
    const owner = await makeOwner();
    const publish = async (version: string, name = 'Player') => {
      const draft = await makeDraft(owner.source.source_id, { name, version, bundle_identifier: 'com.example.same' });
      return api.request('POST', `${appPath(owner.source.source_id, draft.id)}/publish`, { headers: owner.bearer });
    };
    expect((await publish('1.0')).body.code).toBe(1);
    expect((await publish('1.1')).body.code).toBe(1);
    expect((await publish('1.1', 'Renamed')).body).toMatchObject({ code: 40003, data: { error: 'duplicate_version' } });
  });

  describe('size lookup', () => {
    const saved = process.env.FETCH_ALLOW_PRIVATE;
    afterEach(() => {
      if (saved === undefined) delete process.env.FETCH_ALLOW_PRIVATE;
      else process.env.FETCH_ALLOW_PRIVATE = saved;
    });

    const draftWithoutSize = async (path: string) => {
      const owner = await makeOwner();
      const created = await api.request('POST', appsPath(owner.source.source_id), { headers: owner.bearer, json: { ...complete, size: undefined, download_url: `${originUrl}${path}` } });
      const id = created.body.data!.id as number;
      return { owner, id, publish: () => api.request('POST', `${appPath(owner.source.source_id, id)}/publish`, { headers: owner.bearer }) };
    };

    test('a missing size is taken from Content-Length of a HEAD (redirects followed) and stored', async () => {
      process.env.FETCH_ALLOW_PRIVATE = '1';
      const { owner, id, publish } = await draftWithoutSize('/moved.ipa');
      expect((await publish()).body.code).toBe(1);
      expect((await getApp(owner.source.source_id, id))?.size).toBe(4242);
    });

    test('no Content-Length, or a private address while the address rule is on, means the size must be given', async () => {
      process.env.FETCH_ALLOW_PRIVATE = '1';
      const chunked = await draftWithoutSize('/chunked.ipa');
      expect((await chunked.publish()).body).toMatchObject({ code: 40003, data: { error: 'draft_incomplete', fields: ['size'] } });
      delete process.env.FETCH_ALLOW_PRIVATE;
      const privateHost = await draftWithoutSize('/sized.ipa');
      expect((await privateHost.publish()).body).toMatchObject({ code: 40003, data: { error: 'draft_incomplete', fields: ['size'] } });
    });
  });
});
