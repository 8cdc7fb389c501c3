/**
 * Issue 33, low finding: publish conditions its write on the draft not having changed since it was read. A
 * publish waits on the download (the size lookup, or reading the IPA); an edit that lands meanwhile must not
 * be published unseen, nor slip past the duplicate-version guard (which publish computed from what it read).
 */
import type { ServerResponse } from 'node:http';
import { startTestApi, type TestApi } from '../support/api';
import { makeDraft, makeOwner, type Owner } from '../support/fixtures';
import { startLocalServer, type LocalServer, type RecordedRequest } from '../support/local-server';
import { buildIpa, fileHost, type HostedFile } from '../support/ipa-builder';
import { getApp, listApps, updateAppFields } from '../../shared/db/repositories/app-repository';
import { getSource } from '../../shared/db/repositories/source-repository';
import { translate } from '../../shared/i18n/catalog';

let api: TestApi;
let host: LocalServer;
beforeAll(async () => {
  api = await startTestApi();
  host = await startLocalServer();
});
afterAll(async () => {
  await Promise.all([api.close(), host.close()]);
});

const appPath = (owner: Owner, id: number, rest = '') => `/api/appstore/manage/sources/${owner.source.source_id}/apps/${id}${rest}`;
const publish = (owner: Owner, id: number, lang = 'en') => api.request('POST', appPath(owner, id, '/publish'), { headers: { ...owner.bearer, 'X-Lang': lang } });

/**
 * The download host runs `edit` (a concurrent request of the owner) before it answers the first request for
 * `path` — that is, while publish waits on it — and then serves as `serve` does.
 */
function editWhileDownloading(path: string, edit: () => Promise<void>, serve: (req: RecordedRequest, res: ServerResponse) => void) {
  let edited = false;
  host.handle((req, res) => {
    if (req.path.split('?')[0] !== path) return void res.writeHead(404).end();
    if (edited) return serve(req, res);
    edited = true;
    void edit().then(() => serve(req, res));
  });
}

const lengthOnly = (bytes: number) => (_req: RecordedRequest, res: ServerResponse) => res.writeHead(200, { 'Content-Length': String(bytes) }).end();

describe('publish waits on the size lookup', () => {
  test('an edit during the lookup: 409 draft_changed in the caller’s language, nothing published; publishing again publishes the edit', async () => {
    const owner = await makeOwner();
    const draft = await makeDraft(owner.source.source_id, { name: 'Player', version: '2.0', size: undefined, downloadUrl: `${host.url}/p.ipa` });
    editWhileDownloading('/p.ipa', async () => {
      const edit = await api.request('PATCH', appPath(owner, draft.id), { headers: owner.bearer, json: { version: '2.1', description: 'Edited meanwhile' } });
      expect(edit.body.code).toBe(1);
    }, lengthOnly(4096));
    const raced = await publish(owner, draft.id, 'vi');
    expect(raced.status).toBe(409);
    expect(raced.body).toMatchObject({ code: 40003, msg: translate('vi', 'draft_changed'), data: { error: 'draft_changed' } });
    const after = await getApp(owner.source.source_id, draft.id);
    expect(after).toMatchObject({ publish_status: 'draft', version: '2.1', description: 'Edited meanwhile' });
    expect((await getSource(owner.source.source_id))?.published_count ?? 0).toBe(0);
    expect((await api.request('GET', `/api/rjy/${owner.source.source_id}/appstore`)).body.apps).toEqual([]);

    const again = await publish(owner, draft.id);
    expect(again.body).toMatchObject({ code: 1, data: { version: '2.1', publish_status: 'published' } });
  });

  test('an edit that turns the draft into an already published release cannot slip past the duplicate-version guard', async () => {
    const owner = await makeOwner();
    const released = await makeDraft(owner.source.source_id, { name: 'Player', version: '1.0' });
    expect((await publish(owner, released.id)).body.code).toBe(1);
    const draft = await makeDraft(owner.source.source_id, { name: 'Player', version: '2.0', size: undefined, downloadUrl: `${host.url}/p2.ipa` });
    editWhileDownloading('/p2.ipa', async () => {
      expect((await api.request('PATCH', appPath(owner, draft.id), { headers: owner.bearer, json: { version: '1.0' } })).body.code).toBe(1);
    }, lengthOnly(4096));
    expect((await publish(owner, draft.id)).body.data).toMatchObject({ error: 'draft_changed' });
    // the guard then sees the edit for what it is
    expect((await publish(owner, draft.id)).body.data).toMatchObject({ error: 'duplicate_version' });
    const published = (await listApps(owner.source.source_id)).filter((a) => a.publish_status === 'published');
    expect(published.map((a) => [a.id, a.version])).toEqual([[released.id, '1.0']]);
  });
});

describe('publish waits on reading the IPA', () => {
  let previous: string | undefined;
  beforeAll(() => {
    previous = process.env.IPA_INSPECTION;
    process.env.IPA_INSPECTION = 'on';
  });
  afterAll(() => {
    process.env.IPA_INSPECTION = previous;
  });

  test('the download URL changed while publish read the IPA: 409 draft_changed, nothing published, the edit kept', async () => {
    const owner = await makeOwner();
    const files = new Map<string, HostedFile>([['/a.ipa', { body: await buildIpa() }], ['/b.ipa', { body: await buildIpa() }]]);
    const serveFiles = fileHost(files);
    host.handle(serveFiles);
    const created = await api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/apps`, {
      headers: owner.bearer,
      json: { name: 'Player', version: '2.1.0', bundle_identifier: 'com.example.player', developer_name: 'Example Studio', icon_url: 'https://cdn.example.com/i.png' },
    });
    const id = created.body.data!.id as number;
    // set the URL after creation, so the first read of the IPA is publish's own
    const withUrl = await getApp(owner.source.source_id, id);
    expect(withUrl?.download_url).toBe('');
    editWhileDownloading('/a.ipa', async () => {
      expect((await api.request('PATCH', appPath(owner, id), { headers: owner.bearer, json: { download_url: `${host.url}/b.ipa` } })).body.code).toBe(1);
    }, serveFiles);
    // the draft points at a.ipa, not yet read (stored directly: an edit through the API would read it at once)
    await updateAppFields(withUrl!, { download_url: `${host.url}/a.ipa` }, 1_700_000_000);
    const raced = await publish(owner, id);
    expect(raced.status).toBe(409);
    expect(raced.body.data).toMatchObject({ error: 'draft_changed' });
    expect(await getApp(owner.source.source_id, id)).toMatchObject({ publish_status: 'draft', download_url: `${host.url}/b.ipa` });
  });
});
