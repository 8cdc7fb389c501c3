import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startTestApi, type TestApi } from '../support/api';
import { makeDraft, makeOwner, type Owner } from '../support/fixtures';
import { feedProblems, NO_PROBLEMS } from '../support/feed-validators';
import { getSource } from '../../shared/db/repositories/source-repository';
import { listApps } from '../../shared/db/repositories/app-repository';
import { derivedBundleId } from '../../infra/admin/import/kinds/apps';
import { admin } from '../support/admin-cli';
import { outfile, samples, tempFile, watchDynamo } from '../support/import';

let api: TestApi;
let sizes: Server;
let sizesBase: string;

beforeAll(async () => {
  api = await startTestApi();
  // Publishing looks sizes up with a HEAD request; this server answers one with a length, others with none.
  sizes = createServer((req, res) => {
    if (req.url?.startsWith('/sized/')) res.writeHead(200, { 'Content-Length': '4242' });
    else res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => sizes.listen(0, '127.0.0.1', resolve));
  sizesBase = `http://127.0.0.1:${(sizes.address() as AddressInfo).port}`;
  process.env.FETCH_ALLOW_PRIVATE = '1';
});
afterAll(async () => {
  delete process.env.FETCH_ALLOW_PRIVATE;
  await new Promise((resolve) => sizes.close(resolve));
  await api.close();
});

/** Columns: id name version download_url icon_url tint_color size description lock type updated_at status sort. */
let seq = 0;
const app = (cells: Partial<Record<'id' | 'name' | 'version' | 'download_url' | 'icon_url' | 'tint_color' | 'size' | 'description' | 'lock' | 'type' | 'updated_at' | 'status' | 'sort', string>> = {}) => {
  const n = ++seq;
  return [
    cells.id ?? String(1000 + n),
    cells.name ?? `App ${n}`,
    cells.version ?? '1.0',
    cells.download_url ?? `https://cdn.example.com/${n}.ipa`,
    cells.icon_url ?? `https://cdn.example.com/${n}.png`,
    cells.tint_color ?? '\\N',
    cells.size ?? '1000',
    cells.description ?? '\\N',
    cells.lock ?? '0',
    cells.type ?? '0',
    cells.updated_at ?? '1761990000',
    cells.status ?? '1',
    cells.sort ?? '0',
  ];
};

async function owner(): Promise<Owner> {
  return makeOwner();
}

const importApps = (o: Owner, file: string, ...more: string[]) => admin('import', '--apps', file, '--source', o.source.source_id, '--user', o.user.userId, ...more);

async function feed(sourceId: string) {
  const res = await api.request('GET', `/api/rjy/${sourceId}/appstore?udid=00008101-000A1B2C3D4E5F60`);
  expect(res.status).toBe(200);
  return res.body as unknown as { apps: Array<{ name: string; bundleIdentifier: string; developerName: string; tintColor?: string; versions: Array<{ version: string; size: number; date: string }> }> };
}

describe('import --apps', () => {
  test('the INTO OUTFILE sample: shown apps are published with derived bundle ids and the source name as developer; hidden ones are drafts', async () => {
    const o = await owner();
    const out = await importApps(o, join(samples, 'apps.tsv'));
    expect(out.code).toBe(0);
    expect(out.json).toEqual({ kind: 'apps', dry_run: false, rows: 3, imported: 3, skipped: 0, unchanged: 0, errors: [] });
    const apps = await listApps(o.source.source_id);
    expect(apps.map((a) => [a.id, a.name, a.publish_status])).toEqual([
      [1, 'Panel Player', 'published'],
      [2, 'Retro Racer', 'published'],
      [3, 'Beta Tool', 'draft'],
    ]);
    expect(apps[0]).toMatchObject({
      bundle_identifier: derivedBundleId(o.source.source_id, '101', 'Panel Player'),
      developer_name: 'Fixture source',
      tint_color: '1E90FF',
      size: 52428800,
      description: 'Plays everything.\nNo ads.',
      published_at: Date.UTC(2025, 10, 1, 10) / 1000,
    });
    expect(apps[1]).toMatchObject({ lock: 1, type: 1, tint_color: 'ff8800', published_at: 1761990000 });
    expect(await getSource(o.source.source_id)).toMatchObject({ app_count: 3, published_count: 2 });
    const doc = await feed(o.source.source_id);
    expect(doc.apps.map((a) => a.name).sort()).toEqual(['Panel Player', 'Retro Racer']);
    expect(feedProblems(doc)).toEqual(NO_PROBLEMS);
  });

  test('a header is recognised by aliases alone (title, ver), not only by the canonical names', async () => {
    const o = await owner();
    const out = await importApps(o, tempFile('title,ver,url,img,size\nAliased,3.1,https://x.example/a.ipa,https://x.example/a.png,10\n', 'csv'));
    expect(out.json).toMatchObject({ rows: 1, imported: 1, errors: [] });
    expect((await listApps(o.source.source_id))[0]).toMatchObject({ name: 'Aliased', version: '3.1', publish_status: 'published' });
  });

  test('the panel CSV sample: header aliases, other columns ignored, status 0 is a draft', async () => {
    const o = await owner();
    const out = await importApps(o, join(samples, 'apps.csv'));
    expect(out.json).toMatchObject({ rows: 2, imported: 2, skipped: 0, errors: [], ignored_columns: ['cid'] });
    const [photo, notes] = await listApps(o.source.source_id);
    expect(photo).toMatchObject({ name: 'Photo Lab', version: '5.2', download_url: 'https://cdn.example.com/ipa/photolab.ipa', icon_url: 'https://cdn.example.com/icons/photolab.png', tint_color: '336699', size: 73400320, description: 'Filters, frames and "pro" tools', publish_status: 'published' });
    expect(notes).toMatchObject({ name: 'Tiny Notes', publish_status: 'draft', size: 2097152 });
  });

  test('every field is checked with the management schemas; bad rows are reported and skipped', async () => {
    const o = await owner();
    const rows = [
      app({}), // 1 good
      app({ name: '\\N' }), // 2
      app({ name: 'n'.repeat(101) }), // 3
      app({ version: '\\N' }), // 4
      app({ download_url: 'ftp://cdn.example.com/a.ipa' }), // 5
      app({ icon_url: 'not a url' }), // 6
      app({ tint_color: 'blue' }), // 7
      app({ size: '12 MB' }), // 8
      app({ description: 'bell\u0007' }), // 9
      app({ lock: '2' }), // 10
      app({ type: 'game' }), // 11
      app({ status: 'yes' }), // 12
      app({ sort: 'first' }), // 13
      app({ updated_at: '2025-13-01 00:00:00' }), // 14
      app({ id: 'abc' }), // 15
      app({ id: '1001' }), // 16: the id of line 1
      [...app({}), '\\N', '\\N', '\\N', 'fourteen'], // 17
    ];
    const out = await importApps(o, tempFile(outfile(rows)));
    expect(out.json).toMatchObject({ rows: 17, imported: 1, skipped: 16 });
    const errors = out.json.errors as Array<{ line: number; column: string; reason: string }>;
    expect(errors.map((e) => [e.line, e.column])).toEqual([
      [2, 'name'],
      [3, 'name'],
      [4, 'version'],
      [5, 'download_url'],
      [6, 'icon_url'],
      [7, 'tint_color'],
      [8, 'size'],
      [9, 'description'],
      [10, 'lock'],
      [11, 'type'],
      [12, 'status'],
      [13, 'sort'],
      [14, 'updated_at'],
      [15, 'id'],
      [16, 'id'],
      [17, 'min_os_version'],
    ]);
    expect(errors[0]!.reason).toBe('is required');
    expect(errors[4]!.reason).toMatch(/http\(s\) URL/);
    expect(errors[14]!.reason).toBe('repeats the id of line 1');
    expect((await listApps(o.source.source_id)).length).toBe(1);
  });

  test('sizes: looked up as publishing does; a shown row that still cannot be published becomes a draft with a warning', async () => {
    const o = await owner();
    const rows = [
      app({ size: '\\N', download_url: `${sizesBase}/sized/a.ipa` }),
      app({ size: '0', download_url: `${sizesBase}/unknown/b.ipa` }),
      app({ icon_url: '\\N' }),
    ];
    const out = await importApps(o, tempFile(outfile(rows)));
    expect(out.json).toMatchObject({ imported: 3, skipped: 0, errors: [] });
    expect(out.json.warnings).toEqual([
      { line: 2, column: 'size', reason: expect.stringMatching(/publishing needs size: imported as a draft/) },
      { line: 3, column: 'icon_url', reason: expect.stringMatching(/publishing needs icon_url/) },
    ]);
    const apps = await listApps(o.source.source_id);
    expect(apps.map((a) => [a.publish_status, a.size])).toEqual([
      ['published', 4242],
      ['draft', undefined],
      ['draft', 1000],
    ]);
  });

  test('--dry-run reports what would change and writes nothing', async () => {
    const o = await owner();
    const file = tempFile(outfile([app({}), app({}), app({ lock: 'x' })]));
    const dry = await importApps(o, file, '--dry-run');
    expect(dry.json).toMatchObject({ dry_run: true, imported: 2, skipped: 1, unchanged: 0 });
    expect(await listApps(o.source.source_id)).toEqual([]);
    expect(await getSource(o.source.source_id)).toMatchObject({ app_count: 0, published_count: 0 });
    expect((await importApps(o, file)).json).toMatchObject({ dry_run: false, imported: 2, skipped: 1 });
  });

  test('re-running the same file changes nothing; apps the owner made meanwhile are left alone', async () => {
    const o = await owner();
    const file = tempFile(outfile(Array.from({ length: 45 }, () => app({}))));
    expect((await importApps(o, file)).json).toMatchObject({ imported: 45 });
    await makeDraft(o.source.source_id, { name: 'Own draft' });
    const before = await listApps(o.source.source_id);
    const { result, counts } = await watchDynamo(() => importApps(o, file));
    expect(result.json).toMatchObject({ imported: 0, unchanged: 45, skipped: 0 });
    expect(counts.TransactWriteItems ?? 0).toBe(0);
    expect(await listApps(o.source.source_id)).toEqual(before);
    expect(await getSource(o.source.source_id)).toMatchObject({ app_count: 46, published_count: 45 });
  });

  test('an import interrupted mid-file resumes: every row once, counts right', async () => {
    const o = await owner();
    const rows = Array.from({ length: 100 }, () => app({}));
    const file = tempFile(outfile(rows));
    const { result: broken } = await watchDynamo(() => importApps(o, file), { failOn: { command: 'TransactWriteItems', nth: 3 } });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/import stopped after 60 new row\(s\).*run the same command again to resume/);
    expect((await listApps(o.source.source_id)).length).toBe(60);
    const resumed = await importApps(o, file);
    expect(resumed.json).toMatchObject({ imported: 40, unchanged: 60 });
    const apps = await listApps(o.source.source_id);
    expect(apps.map((a) => a.name)).toEqual(rows.map((r) => r[1]));
    expect(apps.map((a) => a.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(await getSource(o.source.source_id)).toMatchObject({ app_count: 100, published_count: 100 });
  });

  test('a release the source already publishes, or one repeated in the file, is refused as duplicate_version', async () => {
    const o = await owner();
    const header = 'id,name,version,download_url,icon_url,size,bundle_identifier\n';
    const first = `1,A,1.0,https://x.example/a.ipa,https://x.example/a.png,10,com.example.a\n`;
    expect((await importApps(o, tempFile(header + first, 'csv'))).json).toMatchObject({ imported: 1 });
    const second = `2,A again,1.0,https://x.example/a.ipa,https://x.example/a.png,10,com.example.a\n3,B,2.0,https://x.example/b.ipa,https://x.example/b.png,10,com.example.b\n4,B copy,2.0,https://x.example/b.ipa,https://x.example/b.png,10,com.example.b\n`;
    const out = await importApps(o, tempFile(header + second, 'csv'));
    expect(out.json).toMatchObject({ imported: 1, skipped: 2 });
    expect((out.json.errors as Array<{ line: number; reason: string }>).map((e) => [e.line, e.reason.split(':')[0]])).toEqual([
      [2, 'duplicate_version'],
      [4, 'duplicate_version'],
    ]);
  });

  test('the source must be the user\'s', async () => {
    const o = await owner();
    const stranger = await owner();
    const file = tempFile(outfile([app({})]));
    const out = await admin('import', '--apps', file, '--source', o.source.source_id, '--user', stranger.user.userId);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/unknown source/);
    expect((await admin('import', '--apps', file, '--user', o.user.userId)).stderr).toMatch(/--apps needs --source/);
  });
});
