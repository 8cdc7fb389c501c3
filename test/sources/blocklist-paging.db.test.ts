/**
 * Issue 33: the block list is paged (spam cannot grow one answer without limit). Blocked UDIDs first, then
 * the misuse monitor, each in UDID order; `limit` counts both; `next` is opaque and empty at the end. The walk
 * over every page at several limits is a rule test on the in-memory store (`protection-rules.test.ts`); here,
 * the API's pages, cursor and bad parameters on DynamoDB Local.
 */
import { startTestApi, type TestApi } from '../support/api';
import { makeOwner, newUdid, type Owner } from '../support/fixtures';
import { blockUdid, recordMonitored } from '../../shared/db/repositories/protection-repository';
import { translate } from '../../shared/i18n/catalog';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

interface Page {
  blocked: { udid: string }[];
  monitored: { udid: string; role: string }[];
  next: string;
}

const listPath = (owner: Owner, query = '') => `/api/appstore/manage/sources/${owner.source.source_id}/blocklist${query}`;

async function page(owner: Owner, query: string): Promise<Page> {
  const res = await api.request('GET', listPath(owner, query), { headers: owner.bearer });
  expect(res.body.code).toBe(1);
  return res.body.data as unknown as Page;
}

/** Every page at `limit`, following `next` until it is empty. */
async function allPages(owner: Owner, limit: number): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor = '';
  do {
    const got = await page(owner, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    pages.push(got);
    cursor = got.next;
  } while (cursor !== '' && pages.length < 50);
  return pages;
}

async function ownerWith(blocked: number, monitored: number) {
  const owner = await makeOwner();
  const now = Math.floor(Date.now() / 1000);
  const blockedUdids = Array.from({ length: blocked }, () => newUdid().toUpperCase());
  const monitoredUdids = Array.from({ length: monitored }, () => newUdid().toUpperCase());
  await Promise.all(blockedUdids.map((u) => blockUdid(owner.source.source_id, u, 'manual', now)));
  await Promise.all(monitoredUdids.map((u, i) => recordMonitored(owner.source.source_id, u, i % 2 ? 'adder' : 'cracker', now)));
  return { owner, blockedUdids: blockedUdids.sort(), monitoredUdids: monitoredUdids.sort() };
}

test('the cursor carries the walk through both lists: every entry once, in order, and next empty at the end', async () => {
  const { owner, blockedUdids, monitoredUdids } = await ownerWith(4, 3);
  const pages = await allPages(owner, 3);
  expect(pages.map((p) => [p.blocked.length, p.monitored.length])).toEqual([
    [3, 0],
    [1, 2],
    [0, 1],
  ]);
  expect(pages.flatMap((p) => [...p.blocked, ...p.monitored].map((e) => e.udid))).toEqual([...blockedUdids, ...monitoredUdids]);
  expect(pages.at(-1)!.next).toBe('');
});

test('without parameters: the first 20 entries; an empty list is one empty page', async () => {
  const { owner } = await ownerWith(15, 10);
  const first = await page(owner, '');
  expect(first.blocked).toHaveLength(15);
  expect(first.monitored).toHaveLength(5);
  expect(first.next).not.toBe('');
  const rest = await page(owner, `?cursor=${first.next}`);
  expect([rest.blocked.length, rest.monitored.length, rest.next]).toEqual([0, 5, '']);
  const empty = await makeOwner();
  expect(await page(empty, '')).toEqual({ blocked: [], monitored: [], next: '' });
});

test.each([
  ['limit 0', '?limit=0', 'invalid_value', ['limit']],
  ['limit 101', '?limit=101', 'invalid_value', ['limit']],
  ['limit 1x', '?limit=1x', 'invalid_value', ['limit']],
  ['a cursor with symbols', '?cursor=a.b', 'invalid_value', ['cursor']],
  ['a cursor that decodes to nothing of ours', `?cursor=${Buffer.from('{"l":"x"}').toString('base64url')}`, 'cursor_invalid', ['cursor']],
  ['a cursor naming a key outside the list', `?cursor=${Buffer.from('{"l":"b","a":"code#X"}').toString('base64url')}`, 'cursor_invalid', ['cursor']],
  ['an over-long cursor', `?cursor=${'A'.repeat(513)}`, 'invalid_value', ['cursor']],
  ['an unknown parameter', '?page=2', 'unknown_field', ['page']],
])('%s is 400/40002 in the caller’s language', async (_name, query, error, fields) => {
  const { owner } = await ownerWith(1, 0);
  const res = await api.request('GET', listPath(owner, query), { headers: { ...owner.bearer, 'X-Lang': 'vi' } });
  expect([res.status, res.body.code, res.body.data]).toEqual([400, 40002, { error, fields }]);
  expect(res.body.msg).toBe(translate('vi', error as 'invalid_value', { fields: fields.join(', ') }));
});
