/**
 * `/api/user/stats?series=day|month` on DynamoDB Local and the App Store Connect simulator: rows across a UTC month
 * boundary (the product's clock moved), an agent's series and the refusal of anyone else's agent, the CSV form
 * holding exactly the JSON rows, ranges refused before anything is read, and one BatchGetItem whatever the range.
 */
import { setClock } from '../../shared/clock';
import { documentClient } from '../../shared/db/client';
import { catalog } from '../../shared/i18n/catalog';
import { languages } from '../../shared/i18n/languages';
import { simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';
import { makeTenant, makeUser } from '../support/fixtures';
import { expectLedgerAddsUp } from '../support/ledger';
import type { ApiResponse } from '../support/api';
import { addBy, chainShop, createAgent, topUp, type Chain, type Member } from '../agents/agent-support';
import { createUser } from '../../shared/db/repositories/user-repository';
import { hashToken } from '../../shared/domain/users/tokens';

let bed: Testbed;
// The product's clock: noon UTC on the 15th of next month, so the default ranges never straddle a boundary by chance.
const at = new Date();
const NOON_15TH = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 15, 12);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const month = (ms: number) => new Date(ms).toISOString().slice(0, 7);
const moveClockTo = (ms: number) => {
  const offset = ms - Date.now();
  setClock(() => Date.now() + offset);
};
let restoreClock: () => void;
beforeAll(async () => {
  bed = await startTestbed();
  restoreClock = setClock(() => Date.now());
  moveClockTo(NOON_15TH);
});
afterAll(async () => {
  restoreClock();
  await bed.close();
});

async function shop(balance: number) {
  const { tenantId, host } = await makeTenant('en');
  const { user, token } = await makeUser({ tenantId, balance });
  await simulatedAccount(bed.sim, { mode: 'instant', tenantId });
  return { tenantId, host, userId: user.userId, token };
}

const stats = (s: { host: string; token: string }, query: string, lang = 'en'): Promise<ApiResponse> =>
  bed.api.request('GET', `/api/user/stats${query}`, { headers: { Host: s.host, 'X-Lang': lang, Authorization: `Bearer ${s.token}` } });
const add = (s: { host: string; token: string }) => bed.api.request('POST', '/api/adddevice/v2', { headers: { Host: s.host, 'X-Lang': 'en' }, json: { token: s.token, udid: udid25() } });

type Row = { period: string; start: number; end: number; adds: number; refunds: number; spend: number; refunded: number; agent_adds: number; sales: number; cost: number; margin: number };
type Series = { user_id: string; agent: string | null; series: string; from: string; to: string; currency: string; rows: Row[] };
const series = (res: ApiResponse) => {
  expect(res.body).toMatchObject({ code: 1 });
  return res.body.data as unknown as Series;
};
const zero = { adds: 0, refunds: 0, spend: 0, refunded: 0, agent_adds: 0, sales: 0, cost: 0, margin: 0 };

/** The CSV as rows keyed by its header, numbers as numbers. */
function parseCsv(text: string): Array<Record<string, string | number>> {
  expect(text.endsWith('\r\n')).toBe(true);
  const [header, ...lines] = text.slice(0, -2).split('\r\n');
  const columns = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i]!, /^-?\d+$/.test(cell) ? Number(cell) : cell])));
}

test('a UTC month boundary: an add on the last evening and one on the next morning land in their own day and month rows', async () => {
  const s = await shop(10_000);
  const boundary = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 2, 1);
  try {
    moveClockTo(boundary - 3_600_000);
    expect((await add(s)).body).toMatchObject({ code: 1 });
    moveClockTo(boundary + 3_600_000);
    expect((await add(s)).body).toMatchObject({ code: 1 });
    expect((await add(s)).body).toMatchObject({ code: 1 });
    const days = series(await stats(s, `?series=day&from=${day(boundary - 2 * 86_400_000)}&to=${day(boundary + 86_400_000)}`));
    expect(days).toMatchObject({ user_id: s.userId, agent: null, series: 'day', currency: expect.any(String) });
    expect(days.rows).toEqual([
      { period: day(boundary - 2 * 86_400_000), start: boundary / 1000 - 2 * 86_400, end: boundary / 1000 - 86_400, ...zero },
      { period: day(boundary - 86_400_000), start: boundary / 1000 - 86_400, end: boundary / 1000, ...zero, adds: 1, spend: 1_000 },
      { period: day(boundary), start: boundary / 1000, end: boundary / 1000 + 86_400, ...zero, adds: 2, spend: 2_000 },
      { period: day(boundary + 86_400_000), start: boundary / 1000 + 86_400, end: boundary / 1000 + 2 * 86_400, ...zero },
    ]);
    const months = series(await stats(s, `?series=month&from=${month(boundary - 86_400_000)}&to=${month(boundary)}`));
    expect(months.rows.map((r) => [r.period, r.adds, r.spend])).toEqual([
      [month(boundary - 86_400_000), 1, 1_000],
      [month(boundary), 2, 2_000],
    ]);
    expect(months.rows[1]!.start).toBe(boundary / 1000);
    // Without from and to: the last 30 days up to today, today's row last.
    const recent = series(await stats(s, '?series=day'));
    expect(recent.rows).toHaveLength(30);
    expect(recent.to).toBe(day(boundary));
    expect(recent.rows.at(-1)).toMatchObject({ period: day(boundary), adds: 2 });
    expect(recent.rows.at(-2)).toMatchObject({ adds: 1 });
    expect(series(await stats(s, '?series=month')).rows.map((r) => r.adds).slice(-3)).toEqual([0, 1, 2]);
    await expectLedgerAddsUp(s.tenantId);
  } finally {
    moveClockTo(NOON_15TH);
  }
}, 60_000);

describe('agents', () => {
  let c: Chain;
  let a1: Member;
  let a2: Member;
  const as = (who: Member) => ({ host: c.host, token: who.token });
  const today = () => day(NOON_15TH);
  beforeAll(async () => {
    c = await chainShop(bed, 10_000);
    a1 = await createAgent(bed, c, c.reseller, 1200, 'first');
    a2 = await createAgent(bed, c, a1, 1500, 'second');
    expect((await topUp(bed, c, c.reseller, a1, 5_000)).body.code).toBe(1);
    expect((await topUp(bed, c, a1, a2, 3_000)).body.code).toBe(1);
    expect((await addBy(bed, c, a2)).body).toMatchObject({ code: 1 });
    expect((await addBy(bed, c, a1)).body).toMatchObject({ code: 1 });
  }, 60_000);

  test("a parent's series and its own agent's: each the agent's own money", async () => {
    const q = `?series=day&from=${today()}&to=${today()}`;
    // The reseller: two sales (a1's add, a2's reaching it through a1), each 1200 against its own 1000.
    expect(series(await stats(as(c.reseller), q)).rows).toEqual([expect.objectContaining({ ...zero, agent_adds: 2, sales: 2_400, cost: 2_000, margin: 400 })]);
    const mine = series(await stats(as(a1), q));
    expect(mine.rows).toEqual([expect.objectContaining({ ...zero, adds: 1, spend: 1_200, agent_adds: 1, sales: 1_500, cost: 1_200, margin: 300 })]);
    const agent = series(await stats(as(a1), `${q}&agent=${a2.userId}`));
    expect(agent).toMatchObject({ user_id: a2.userId, agent: a2.userId });
    expect(agent.rows).toEqual([expect.objectContaining({ ...zero, adds: 1, spend: 1_500 })]);
    // The reseller reads a1's the same way, and it is what a1 reads of itself.
    expect(series(await stats(as(c.reseller), `${q}&agent=${a1.userId}`)).rows).toEqual(mine.rows);
    await expectLedgerAddsUp(c.tenantId);
  });

  test('by=agent: each direct agent with its figures for a day or a month; with agent, that agent’s own agents', async () => {
    type ByAgent = { user_id: string; agent: string | null; period: string; start: number; end: number; rows: Array<{ agent_id: string; name: string; suspended: boolean } & typeof zero>; next_cursor: string | null };
    const byAgent = (res: ApiResponse) => {
      expect(res.body).toMatchObject({ code: 1 });
      return res.body.data as unknown as ByAgent;
    };
    const mine = byAgent(await stats(as(c.reseller), '?by=agent'));
    expect(mine).toMatchObject({ user_id: c.reseller.userId, agent: null, period: month(NOON_15TH), next_cursor: null });
    expect(mine.rows).toEqual([{ agent_id: a1.userId, name: 'first', suspended: false, ...zero, adds: 1, spend: 1_200, agent_adds: 1, sales: 1_500, cost: 1_200, margin: 300 }]);
    // The same figures as a1's own series of the month.
    const a1Month = series(await stats(as(a1), `?series=month&from=${month(NOON_15TH)}&to=${month(NOON_15TH)}`)).rows[0]!;
    expect(mine.rows[0]).toMatchObject({ adds: a1Month.adds, spend: a1Month.spend, sales: a1Month.sales, margin: a1Month.margin });
    const day = byAgent(await stats(as(a1), `?by=agent&period=${today()}`));
    expect(day).toMatchObject({ period: today(), end: day.start + 86_400 });
    expect(day.rows).toEqual([{ agent_id: a2.userId, name: 'second', suspended: false, ...zero, adds: 1, spend: 1_500 }]);
    expect(byAgent(await stats(as(c.reseller), `?by=agent&agent=${a1.userId}&period=${today()}`)).rows).toEqual(day.rows);
    expect(byAgent(await stats(as(a2), '?by=agent')).rows).toEqual([]);
    const stranger = await stats(as(a2), `?by=agent&agent=${a1.userId}`);
    expect(stranger.body).toMatchObject({ code: 40006, data: { error: 'agent_not_found' } });
  });

  test("anyone else's agent — a grandchild, the parent, another reseller's — is refused as the dashboard refuses it, in JSON and CSV alike", async () => {
    const other = await chainShop(bed, 0);
    const stranger = await createAgent(bed, other, other.reseller, 1200);
    for (const [who, id] of [[c.reseller, a2.userId], [a2, a1.userId], [c.reseller, stranger.userId]] as const) {
      for (const format of ['', '&format=csv']) {
        const res = await stats(as(who), `?series=month&agent=${id}${format}`);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: 40006, msg: 'Agent not found or not yours', data: { error: 'agent_not_found' } });
        expect(res.body.data).not.toHaveProperty('rows');
      }
    }
  });
});

test('format=csv: the same rows as the JSON answer, as a text/csv attachment with a header row', async () => {
  const s = await shop(10_000);
  expect((await add(s)).body.code).toBe(1);
  expect((await add(s)).body.code).toBe(1);
  const q = `?series=day&from=${day(NOON_15TH - 10 * 86_400_000)}&to=${day(NOON_15TH)}`;
  const json = series(await stats(s, q));
  const csv = await stats(s, `${q}&format=csv`);
  expect(csv.status).toBe(200);
  expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="stats-${s.userId}-day-${json.from}-${json.to}.csv"`);
  const text = String(csv.body.raw);
  expect(text.split('\r\n')[0]).toBe('period,start,end,adds,refunds,spend,refunded,agent_adds,sales,cost,margin');
  expect(parseCsv(text)).toEqual(json.rows);
  expect(json.rows).toHaveLength(11);
  expect(json.rows.at(-1)).toMatchObject({ adds: 2, spend: 2_000 });
  // Months too.
  const months = series(await stats(s, '?series=month&from=' + month(NOON_15TH)));
  expect(parseCsv(String((await stats(s, '?series=month&format=csv&from=' + month(NOON_15TH))).body.raw))).toEqual(months.rows);
}, 60_000);

test('bounds: 92 days and 24 months answer; longer, reversed or malformed ranges are refused in every language before anything is read', async () => {
  const s = await shop(0);
  const end = NOON_15TH;
  expect(series(await stats(s, `?series=day&from=${day(end - 91 * 86_400_000)}&to=${day(end)}`)).rows).toHaveLength(92);
  const twoYears = new Date(Date.UTC(at.getUTCFullYear() - 2, at.getUTCMonth() + 2, 1));
  expect(series(await stats(s, `?series=month&from=${month(twoYears.getTime())}&to=${month(end)}`)).rows).toHaveLength(24);

  const tooLong = [
    `?series=day&from=${day(end - 92 * 86_400_000)}&to=${day(end)}`,
    `?series=month&from=${month(Date.UTC(at.getUTCFullYear() - 2, at.getUTCMonth() + 1, 1))}&to=${month(end)}`,
    `?series=day&from=${day(end)}&to=${day(end - 86_400_000)}`,
    '?series=day&from=1970-01-01&to=9999-12-31',
    '?series=month&from=2027-01',
  ];
  for (const q of tooLong) {
    const res = await stats(s, q);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 40002, data: { error: 'stats_range_invalid', max_days: 92, max_months: 24 } });
  }
  for (const lang of languages) {
    const res = await stats(s, `?series=day&from=${day(end - 100 * 86_400_000)}`, lang);
    expect(res.body.msg).toBe(catalog.stats_range_invalid[lang].replace('{days}', '92').replace('{months}', '24'));
  }
  expect((await stats(s, `?series=day&from=${day(end - 100 * 86_400_000)}`, 'zh')).body.msg).toBe('日期范围无效：from 不能晚于 to，且一个序列最多 92 天或 24 个月');

  for (const [q, field] of [
    ['?series=day&from=2026-02-30', 'from'],
    ['?series=day&to=2026-11', 'to'],
    ['?series=month&from=2026-11-01', 'from'],
    ['?series=month&to=1969-12', 'to'],
    ['?series=week', 'series'],
    ['?series=day&format=xml', 'format'],
  ] as const) {
    const res = await stats(s, q, 'es');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 40002, data: { error: 'invalid_value', fields: [field] } });
  }
  const stray = await stats(s, '?from=2026-11-01&format=csv', 'ru');
  expect(stray.status).toBe(400);
  expect(stray.body).toMatchObject({ code: 40002, msg: catalog.stats_series_required.ru, data: { error: 'stats_series_required', fields: ['from', 'format'] } });
});

test('bounded: a 92-day series costs one BatchGetItem, as a 3-day one does, and no Query or scan', async () => {
  const s = await shop(10_000);
  for (let i = 0; i < 3; i++) expect((await add(s)).body.code).toBe(1);
  const count = async (query: string, status = 200) => {
    const calls: string[] = [];
    const TAP = 'series-call-count';
    documentClient().middlewareStack.add(
      (next, context) => async (args) => {
        const input = JSON.stringify(args.input);
        if (!/"TableName":"[^"]*tenant(s|-hosts)"/.test(input)) calls.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: TAP },
    );
    try {
      expect((await stats(s, query)).status).toBe(status);
    } finally {
      documentClient().middlewareStack.remove(TAP);
    }
    return calls.sort();
  };
  const short = await count(`?series=day&from=${day(NOON_15TH - 2 * 86_400_000)}&to=${day(NOON_15TH)}`);
  const long = await count(`?series=day&from=${day(NOON_15TH - 91 * 86_400_000)}&to=${day(NOON_15TH)}`);
  const months = await count('?series=month&format=csv');
  // The token, the rate limit's count, the tallies.
  expect(short).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'UpdateItemCommand']);
  expect(long).toEqual(short);
  expect(months).toEqual(short);
  // A refused range reads no tally.
  expect(await count(`?series=day&from=${day(NOON_15TH - 92 * 86_400_000)}`, 400)).toEqual(['GetItemCommand', 'UpdateItemCommand']);
}, 60_000);

test('by=agent pages 100 agents at a time, each page one Query and one BatchGetItem', async () => {
  const s = await shop(0);
  const ids = Array.from({ length: 101 }, (_, i) => `u_series_${s.userId}_${String(i).padStart(3, '0')}`);
  for (const id of ids) {
    expect(await createUser({ userId: id, tenantId: s.tenantId, name: id.slice(-3), balance: 0, tokenHash: hashToken(`t-${id}`), createdAt: 0, agent: { upline: [s.userId], contact: '' } })).toBe(true);
  }
  const calls: string[] = [];
  const TAP = 'by-agent-call-count';
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (!/"TableName":"[^"]*tenant(s|-hosts)"/.test(JSON.stringify(args.input))) calls.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: TAP },
  );
  let first: ApiResponse;
  try {
    first = await stats(s, '?by=agent');
  } finally {
    documentClient().middlewareStack.remove(TAP);
  }
  expect(calls.sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'QueryCommand', 'UpdateItemCommand']);
  const page1 = first.body.data as { rows: Array<{ agent_id: string }>; next_cursor: string | null };
  expect(page1.rows).toHaveLength(100);
  expect(page1.next_cursor).toEqual(expect.any(String));
  const page2 = (await stats(s, `?by=agent&cursor=${page1.next_cursor}`)).body.data as { rows: Array<{ agent_id: string }>; next_cursor: string | null };
  expect([...page1.rows, ...page2.rows].map((r) => r.agent_id).sort()).toEqual(ids);
  expect(page2.next_cursor).toBeNull();
  const bad = await stats(s, '?by=agent&cursor=%21%21', 'vi');
  expect(bad.body).toMatchObject({ code: 40002, msg: catalog.cursor_invalid.vi, data: { error: 'cursor_invalid' } });
  for (const [q, error, fields] of [
    ['?period=2026-11', 'stats_by_agent_required', ['period']],
    ['?series=day&by=agent', 'invalid_value', ['by', 'series']],
    ['?by=agent&period=2026-13', 'invalid_value', ['period']],
    ['?by=agent&from=2026-11-01', 'stats_series_required', ['from']],
  ] as const) {
    const res = await stats(s, q, 'ar');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 40002, data: { error, fields } });
  }
  expect((await stats(s, '?period=2026-11', 'ar')).body.msg).toBe(catalog.stats_by_agent_required.ar);
}, 60_000);
