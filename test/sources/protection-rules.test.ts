/**
 * The protection rules on an in-memory protection store, once the source is known: an unlock code's one use
 * and the unlock it grants, what a device's own misuse report does (block at once, count in the monitor, or
 * neither for a protected device), and how the block list pages. That a code's use is one conditional update
 * (N racing devices, one winner), that a block leaves the monitor in the same transaction and that a later
 * unlock end is never shortened are the repository's writes, proven on DynamoDB Local by
 * `source-protection.db.test.ts`; the owner lookup, the device key and the ceilings by the same file.
 */
import { DomainError } from '../../shared/domain/errors';
import { blocklistPage, countMisuseReport, redeemUnlockCode, type BlocklistPosition } from '../../shared/domain/sources/protection-service';
import { DAY_SECONDS } from '../../shared/clock';
import { useMemoryStores, type MemoryProtectionStore } from '../support/memory-stores';

const NOW = 1_800_000_000;
const SOURCE = 'src1';
const A = '00008030-000A1B2C3D4E5F6A';
const B = '00008030-000B1B2C3D4E5F6B';

let protection: MemoryProtectionStore;
beforeEach(() => {
  protection = useMemoryStores().protection;
});

async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(DomainError);
  return { kind: (error as DomainError).kind, reason: (error as DomainError).reason, fields: (error as DomainError).fields };
}

describe('unlock codes', () => {
  test("a code unlocks its UDID for the code's days from its use; the same UDID again gets the same answer", async () => {
    await protection.putUnlockCodes(SOURCE, [{ code: 'AAAABBBBCCCC', days: 30 }], NOW - 100);
    const first = await redeemUnlockCode(SOURCE, A, 'AAAABBBBCCCC', NOW);
    expect(first.data).toEqual({ udid: A, code: 'AAAABBBBCCCC', days: 30, ends_at: NOW + 30 * DAY_SECONDS });
    expect(first.message).toEqual({ key: 'unlocked_until', params: { until: new Date((NOW + 30 * DAY_SECONDS) * 1000).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' } });
    expect(await protection.deviceStanding(SOURCE, A)).toEqual({ blocked: false, unlockedUntil: NOW + 30 * DAY_SECONDS });
    // Later, again: the end is the first use's, not moved.
    expect((await redeemUnlockCode(SOURCE, A, 'AAAABBBBCCCC', NOW + 500)).data.ends_at).toBe(NOW + 30 * DAY_SECONDS);
  });

  test('the holder asking again writes its unlock again (an earlier attempt may have stopped between the two writes)', async () => {
    await protection.putUnlockCodes(SOURCE, [{ code: 'AAAABBBBCCCC', days: 2 }], NOW);
    await protection.useUnlockCode(SOURCE, 'AAAABBBBCCCC', A, NOW);
    expect(await protection.deviceStanding(SOURCE, A)).toMatchObject({ unlockedUntil: 0 });
    await redeemUnlockCode(SOURCE, A, 'AAAABBBBCCCC', NOW + 10);
    expect(await protection.deviceStanding(SOURCE, A)).toMatchObject({ unlockedUntil: NOW + 2 * DAY_SECONDS });
  });

  test('a code another UDID holds is unlock_code_used; an unknown one unlock_code_unknown; no UDID udid_invalid; none unlocks', async () => {
    await protection.putUnlockCodes(SOURCE, [{ code: 'AAAABBBBCCCC', days: 2 }], NOW);
    await redeemUnlockCode(SOURCE, A, 'AAAABBBBCCCC', NOW);
    expect(await refusal(redeemUnlockCode(SOURCE, B, 'AAAABBBBCCCC', NOW))).toEqual({ kind: 'unlock_refused', reason: 'unlock_code_used', fields: undefined });
    expect(await refusal(redeemUnlockCode(SOURCE, B, 'ZZZZBBBBCCCC', NOW))).toMatchObject({ reason: 'unlock_code_unknown' });
    expect(await refusal(redeemUnlockCode(SOURCE, B, undefined, NOW))).toMatchObject({ reason: 'unlock_code_unknown' });
    expect(await refusal(redeemUnlockCode(SOURCE, undefined, 'AAAABBBBCCCC', NOW))).toEqual({ kind: 'unlock_refused', reason: 'udid_invalid', fields: ['udid'] });
    // A code of another source is unknown here.
    expect(await refusal(redeemUnlockCode('src2', A, 'AAAABBBBCCCC', NOW))).toMatchObject({ reason: 'unlock_code_unknown' });
    expect(await protection.deviceStanding(SOURCE, B)).toEqual({ blocked: false, unlockedUntil: 0 });
  });

  test('devices racing for one code: one unlocks, every other is unlock_code_used', async () => {
    await protection.putUnlockCodes(SOURCE, [{ code: 'AAAABBBBCCCC', days: 2 }], NOW);
    const udids = Array.from({ length: 8 }, (_, i) => `00008030-00${i}A1B2C3D4E5F6A`);
    const outcomes = await Promise.allSettled(udids.map((udid) => redeemUnlockCode(SOURCE, udid, 'AAAABBBBCCCC', NOW)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as DomainError).reason] : []))).toEqual(Array(7).fill('unlock_code_used'));
    const standings = await Promise.all(udids.map((udid) => protection.deviceStanding(SOURCE, udid)));
    expect(standings.filter((s) => s.unlockedUntil > 0)).toHaveLength(1);
  });
});

describe('misuse reports (the flag table moved from source-protection.db.test.ts; one case stays there)', () => {
  const source = (openBlack: 0 | 1, openBlack2: 0 | 1) => ({ source_id: SOURCE, open_black: openBlack, open_black2: openBlack2 });
  const flagCases: [0 | 1, 0 | 1][] = [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ];

  test.each(flagCases)('open_black %i, open_black2 %i: a flagged part naming the reporter is blocked at once, the other monitored', async (openBlack, openBlack2) => {
    const adder = await countMisuseReport({ source: source(openBlack, openBlack2), provenUdid: A, report: { adder: A, cracker: B }, ownersDevice: false, nowSeconds: NOW });
    const cracker = await countMisuseReport({ source: source(openBlack, openBlack2), provenUdid: B, report: { adder: A, cracker: B }, ownersDevice: false, nowSeconds: NOW });
    // Each device's report counts only the part naming itself: the other part is someone else's word.
    expect(adder).toEqual(openBlack ? { blocked: [A], monitored: [] } : { blocked: [], monitored: [A] });
    expect(cracker).toEqual(openBlack2 ? { blocked: [B], monitored: [] } : { blocked: [], monitored: [B] });
    const page = await blocklistPage(SOURCE, 100, undefined);
    expect(page.blocked.map((b) => [b.udid, b.reason])).toEqual([...(openBlack ? [[A, 'adder']] : []), ...(openBlack2 ? [[B, 'cracker']] : [])]);
    expect(page.monitored.map((m) => [m.udid, m.role, m.count])).toEqual([...(openBlack ? [] : [[A, 'adder', 1]]), ...(openBlack2 ? [] : [[B, 'cracker', 1]])]);
  });

  test("the owner's own device and one whose unlock runs are never blocked by a report, only counted; an ended unlock protects no more", async () => {
    expect(await countMisuseReport({ source: source(1, 1), provenUdid: A, report: { adder: A, cracker: A }, ownersDevice: Promise.resolve(true), nowSeconds: NOW })).toEqual({ blocked: [], monitored: [A] });
    await protection.grantUnlock(SOURCE, B, NOW + 60);
    expect(await countMisuseReport({ source: source(1, 0), provenUdid: B, report: { adder: B, cracker: undefined }, ownersDevice: false, nowSeconds: NOW })).toEqual({ blocked: [], monitored: [B] });
    expect(await countMisuseReport({ source: source(1, 0), provenUdid: B, report: { adder: B, cracker: undefined }, ownersDevice: false, nowSeconds: NOW + 60 })).toEqual({ blocked: [B], monitored: [] });
  });

  test('the monitor counts each report with first and last seen; a blocked UDID is not counted', async () => {
    await countMisuseReport({ source: source(0, 0), provenUdid: A, report: { adder: undefined, cracker: A }, ownersDevice: false, nowSeconds: NOW });
    await countMisuseReport({ source: source(0, 0), provenUdid: A, report: { adder: undefined, cracker: A }, ownersDevice: false, nowSeconds: NOW + 90 });
    expect((await blocklistPage(SOURCE, 10, undefined)).monitored).toEqual([{ udid: A, role: 'cracker', count: 2, first_seen: NOW, last_seen: NOW + 90 }]);
    await protection.blockUdid(SOURCE, B, 'manual', NOW);
    expect(await countMisuseReport({ source: source(0, 0), provenUdid: B, report: { adder: B, cracker: undefined }, ownersDevice: false, nowSeconds: NOW })).toEqual({ blocked: [], monitored: [] });
  });
});

describe('the block list pages (moved from blocklist-paging.db.test.ts)', () => {
  /** Every page at `limit`, each starting where the previous said. */
  async function allPages(limit: number) {
    const pages = [];
    let from: BlocklistPosition | undefined;
    do {
      const page = await blocklistPage(SOURCE, limit, from);
      pages.push(page);
      from = page.next;
    } while (from && pages.length < 50);
    return pages;
  }

  test('pages of `limit` entries walk every blocked UDID, then every monitored one, once each; nothing follows the last', async () => {
    const udid = (i: number) => `00008030-${String(i).padStart(4, '0')}1B2C3D4E5F6A`;
    const blocked = Array.from({ length: 7 }, (_, i) => udid(100 + i));
    const monitored = Array.from({ length: 5 }, (_, i) => udid(200 + i));
    // Stored in another order than UDID order.
    for (const u of [...blocked].reverse()) await protection.blockUdid(SOURCE, u, 'manual', NOW);
    for (const [i, u] of [...monitored].reverse().entries()) await protection.recordMonitored(SOURCE, u, i % 2 ? 'adder' : 'cracker', NOW);
    for (const limit of [1, 3, 7, 12, 100]) {
      const pages = await allPages(limit);
      expect(pages.every((p) => p.blocked.length + p.monitored.length <= limit)).toBe(true);
      expect(pages.at(-1)!.next).toBeUndefined();
      expect(pages.flatMap((p) => p.blocked.map((b) => b.udid))).toEqual(blocked);
      expect(pages.flatMap((p) => p.monitored.map((m) => m.udid))).toEqual(monitored);
      // only the last page may be short, and no page is empty
      expect(pages.slice(0, -1).every((p) => p.blocked.length + p.monitored.length === limit)).toBe(true);
      expect(pages.every((p) => p.blocked.length + p.monitored.length > 0)).toBe(true);
    }
  });

  test('an empty list is one empty page', async () => {
    expect(await blocklistPage(SOURCE, 20, undefined)).toEqual({ blocked: [], monitored: [], next: undefined });
  });
});
