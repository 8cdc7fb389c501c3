/**
 * Issue 33, low finding: a lock applies to the whole app, every release of it. Releases of one bundle
 * identifier are one app in the feed; locking any of them locks them all — an older version in `versions`
 * is no way around the lock, in the feed or at the gate.
 */
import { startTestApi, type ApiResponse, type TestApi } from '../support/api';
import { makeDraft, makeOwner, newUdid, type Owner } from '../support/fixtures';
import type { AppMetadata } from '../../shared/records/app';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

interface Feed {
  apps: { bundleIdentifier: string; lock: string; downloadURL: string; versions: { version: string; downloadURL: string }[] }[];
}

const manage = (owner: Owner, rest: string) => `/api/appstore/manage/sources/${owner.source.source_id}/${rest}`;
const local = (url: string) => `${new URL(url).pathname}${new URL(url).search}`;

async function release(owner: Owner, draft: Partial<AppMetadata> & { downloadUrl?: string }) {
  const app = await makeDraft(owner.source.source_id, { name: 'Player', ...draft });
  expect((await api.request('POST', manage(owner, `apps/${app.id}/publish`), { headers: owner.bearer })).body.code).toBe(1);
  return app;
}

/** A source that does not protect links (encrypt_enabled 0): an unlocked release would get its origin URL. */
async function openSource(): Promise<Owner> {
  const owner = await makeOwner();
  expect((await api.request('PATCH', `/api/appstore/manage/sources/${owner.source.source_id}`, { headers: owner.bearer, json: { encrypt_enabled: 0 } })).body.code).toBe(1);
  return owner;
}

async function feedOf(path: string): Promise<Feed> {
  const res = await api.request('GET', path);
  expect(res.status).toBe(200);
  return res.body as unknown as Feed;
}

const gate = (link: string): Promise<ApiResponse> => api.request('GET', local(link), { headers: { 'X-Lang': 'en' } });

test.each([
  ['the newest release locked, an older one not', [0, 1]],
  ['an older release locked, the newest not', [1, 0]],
])('%s: every version is locked in the feed and at the gate until the device unlocks', async (_name, locks) => {
  const owner = await openSource();
  await release(owner, { version: '1.0', lock: locks[0] as 0 | 1, downloadUrl: 'https://dl.example.com/p-1.0.ipa' });
  await release(owner, { version: '2.0', lock: locks[1] as 0 | 1, downloadUrl: 'https://dl.example.com/p-2.0.ipa' });
  const udid = newUdid();
  const device = (await api.request('GET', `${manage(owner, 'device-url')}?udid=${udid}`, { headers: owner.bearer })).body.data!.url as string;

  const feed = await feedOf(local(device));
  const app = feed.apps.find((a) => a.bundleIdentifier === 'com.example.player')!;
  expect(app.lock).toBe('1');
  expect(app.versions.map((v) => v.version)).toEqual(['2.0', '1.0']);
  for (const version of app.versions) {
    // no origin URL for any release: each goes through the gate, which refuses it
    expect(version.downloadURL).not.toMatch(/^https:\/\/dl\.example\.com/);
    const refused = await gate(version.downloadURL);
    expect([refused.status, refused.body.data?.error]).toEqual([403, 'locked']);
  }

  // the device unlocks the source: every release downloads
  const code = (await api.request('POST', manage(owner, 'unlock-codes'), { headers: owner.bearer, json: { count: 1, days: 30 } })).body.data!.codes as { code: string }[];
  expect((await api.request('GET', `${local(device)}&code=${code[0]!.code}`)).body.code).toBe(1);
  const unlocked = (await feedOf(local(device))).apps.find((a) => a.bundleIdentifier === 'com.example.player')!;
  expect(unlocked.lock).toBe('0');
  const locations = [];
  for (const version of unlocked.versions) {
    const ok = await gate(version.downloadURL);
    expect(ok.status).toBe(302);
    locations.push(ok.headers.get('location'));
  }
  expect(locations).toEqual(['https://dl.example.com/p-2.0.ipa', 'https://dl.example.com/p-1.0.ipa']);
});

test('the lock in a link is signed: removing it from an older release’s link is a bad signature, not a download', async () => {
  const owner = await openSource();
  await release(owner, { version: '1.0', lock: 0, downloadUrl: 'https://dl.example.com/p-1.0.ipa' });
  await release(owner, { version: '2.0', lock: 1, downloadUrl: 'https://dl.example.com/p-2.0.ipa' });
  const feed = await feedOf(`/api/rjy/${owner.source.source_id}/appstore?udid=${newUdid()}`);
  const older = new URL(feed.apps[0]!.versions[1]!.downloadURL);
  expect(older.searchParams.get('l')).toBe('1');
  older.searchParams.delete('l');
  const stripped = await gate(older.href);
  expect([stripped.status, stripped.body.data?.error]).toEqual([403, 'bad_signature']);
  older.searchParams.set('l', '0');
  expect((await gate(older.href)).body.data?.error).toBe('bad_signature');
});

test('an app with no locked release keeps its origin URLs on a source that does not protect links', async () => {
  const owner = await openSource();
  await release(owner, { version: '1.0', lock: 0, downloadUrl: 'https://dl.example.com/p-1.0.ipa' });
  await release(owner, { version: '2.0', lock: 0, downloadUrl: 'https://dl.example.com/p-2.0.ipa' });
  const app = (await feedOf(`/api/rjy/${owner.source.source_id}/appstore?udid=${newUdid()}`)).apps[0]!;
  expect(app.lock).toBe('0');
  expect(app.versions.map((v) => v.downloadURL)).toEqual(['https://dl.example.com/p-2.0.ipa', 'https://dl.example.com/p-1.0.ipa']);
});
