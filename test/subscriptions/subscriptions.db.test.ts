/**
 * Plans, the trial and purchases, as a reseller with a token and a balance meets them through the API, and
 * the operator through the CLI.
 */
import { startTestApi, type TestApi } from '../support/api';
import { admin } from '../support/admin-cli';
import { makeTenant, makeUser } from '../support/fixtures';
import { getUser } from '../../shared/db/repositories/user-repository';
import { getSubscription, listSubscriptionRecords } from '../../shared/db/repositories/subscription-repository';
import { expectLedgerAddsUp, ledgerOf } from '../support/ledger';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const DAY = 86_400;
const SUB = '/api/appstore/manage/subscription';
const SOURCES = '/api/appstore/manage/sources';

interface Shop {
  tenantId: string;
  host: string;
  trial: string;
  pro: string;
}

/** A tenant with two plans and a 7-day trial of the first. */
async function shop(): Promise<Shop> {
  const { tenantId, host } = await makeTenant('en');
  const trial = await admin('plan', 'create', '--tenant', tenantId, '--name', 'Starter', '--price', '500', '--days', '30', '--sources', '2', '--apps-per-source', '3', '--published-per-source', '2');
  expect(trial.code).toBe(0);
  const pro = await admin('plan', 'create', '--tenant', tenantId, '--name', 'Pro', '--price', '1000', '--days', '30', '--sources', '3', '--apps-per-source', '5', '--published-per-source', '5');
  const set = await admin('tenant', 'set', '--tenant', tenantId, '--trial-plan', String(trial.json.plan_id), '--trial-days', '7');
  expect(set.json).toMatchObject({ trial_plan: trial.json.plan_id, trial_days: 7, grace_days: 7 });
  return { tenantId, host, trial: String(trial.json.plan_id), pro: String(pro.json.plan_id) };
}

async function reseller(s: Shop, balance = 0) {
  const { user, token } = await makeUser({ tenantId: s.tenantId, balance });
  const headers = { Authorization: `Bearer ${token}`, Host: s.host, 'X-Lang': 'en' };
  return { user, token, headers };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('plans (operator CLI)', () => {
  test('create, list, set and retire; bad flags are refused naming the flag', async () => {
    const { tenantId } = await makeTenant();
    const created = await admin('plan', 'create', '--tenant', tenantId, '--name', 'Basic', '--price', '100', '--days', '30', '--sources', '1', '--apps-per-source', '10', '--published-per-source', '5');
    expect(created.json).toMatchObject({ tenant_id: tenantId, name: 'Basic', price: 100, days: 30, sources: 1, apps_per_source: 10, published_per_source: 5, retired: false });
    const planId = String(created.json.plan_id);
    expect((await admin('plan', 'set', '--tenant', tenantId, '--plan', planId, '--price', '150')).json).toMatchObject({ plan_id: planId, price: 150, days: 30 });
    expect((await admin('plan', 'retire', '--tenant', tenantId, '--plan', planId)).json).toMatchObject({ retired: true });
    expect((await admin('plan', 'list', '--tenant', tenantId)).json).toEqual({ plans: [expect.objectContaining({ plan_id: planId, price: 150, retired: true })] });

    for (const [flag, value] of [['--price', '-1'], ['--days', '0'], ['--days', '3651'], ['--sources', 'x']] as const) {
      const bad = await admin('plan', 'create', '--tenant', tenantId, '--name', 'B', '--price', '1', '--days', '1', '--sources', '1', '--apps-per-source', '1', '--published-per-source', '1', flag, value);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(flag);
    }
    expect((await admin('plan', 'set', '--tenant', tenantId, '--plan', 'p_nope', '--price', '1')).code).toBe(1);
    expect((await admin('tenant', 'set', '--tenant', tenantId, '--trial-plan', 'p_nope')).stderr).toContain('p_nope');
  });
});

describe('the trial and purchases', () => {
  test('a new reseller sees the trial, starts it once, hits the source limit, buys a plan and creates the third', async () => {
    const s = await shop();
    const r = await reseller(s, 1000);
    const before = await api.request('GET', SUB, { headers: r.headers });
    expect(before.body.data).toMatchObject({ status: 'none', plan: null, expires_at: null, trial_available: true, trial: { plan_id: s.trial, days: 7 }, usage: { sources: 0 } });
    expect((before.body.data as { plans: unknown[] }).plans).toHaveLength(2);

    const started = await api.request('POST', SUB, { headers: r.headers, json: { trial: true } });
    expect(started.body).toMatchObject({ code: 1, data: { status: 'active', is_trial: true, plan: { plan_id: s.trial }, trial_available: false, charged: 0, limits: { sources: 2 } } });
    const expires = (started.body.data as { expires_at: number }).expires_at;
    expect(Math.abs(expires - (nowSeconds() + 7 * DAY))).toBeLessThan(10);

    const again = await api.request('POST', SUB, { headers: r.headers, json: { trial: true } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 40003, data: { error: 'trial_unavailable' } });

    for (const name of ['One', 'Two']) expect((await api.request('POST', SOURCES, { headers: r.headers, json: { name } })).body.code).toBe(1);
    const third = await api.request('POST', SOURCES, { headers: r.headers, json: { name: 'Three' } });
    expect(third.status).toBe(409);
    expect(third.body).toMatchObject({ code: 40003, data: { error: 'quota_exceeded', limit: 2 } });
    expect(third.body.msg).toBe("The plan's limit of sources is reached (2)");

    const bought = await api.request('POST', SUB, { headers: r.headers, json: { plan: s.pro } });
    expect(bought.body).toMatchObject({ code: 1, data: { status: 'active', is_trial: false, plan: { plan_id: s.pro, name: 'Pro' }, charged: 1000, limits: { sources: 3 }, usage: { sources: 2 } } });
    // Another plan starts now: the trial's unused days are not carried over.
    expect(Math.abs((bought.body.data as { expires_at: number }).expires_at - (nowSeconds() + 30 * DAY))).toBeLessThan(10);
    expect((await getUser(r.user.userId))!.balance).toBe(0);
    expect((await api.request('POST', SOURCES, { headers: r.headers, json: { name: 'Three' } })).body.code).toBe(1);
    expect((await api.request('GET', SUB, { headers: r.headers })).body.data).toMatchObject({ usage: { sources: 3 }, trial_available: false });

    const records = await listSubscriptionRecords(r.user.userId);
    // Records of one second have no order among themselves: compare them sorted.
    expect(records.map((x) => [x.kind, x.planId, x.price]).sort()).toEqual([
      ['purchase', s.pro, 1000],
      ['trial', s.trial, 0],
    ]);
  });

  test('10 identical purchases at once with money for one: one charge, one extension, never negative', async () => {
    const s = await shop();
    const r = await reseller(s, 1000);
    const answers = await Promise.all(Array.from({ length: 10 }, () => api.request('POST', SUB, { headers: r.headers, json: { plan: s.pro } })));
    expect(answers.filter((a) => a.body.code === 1)).toHaveLength(1);
    // The refusal as the API answers it (the rule itself: subscription-rules.test.ts).
    for (const refused of answers.filter((a) => a.body.code !== 1)) {
      expect([refused.status, refused.body]).toMatchObject([409, { code: 40003, data: { error: 'balance_too_low', price: 1000 }, msg: "Your balance does not cover the plan's price (1000)" }]);
    }
    expect((await getUser(r.user.userId))!.balance).toBe(0);
    const subscription = (await getSubscription(r.user.userId))!;
    expect(Math.abs(subscription.expiresAt - (nowSeconds() + 30 * DAY))).toBeLessThan(10);
    expect(subscription.version).toBe(1);
    expect(await listSubscriptionRecords(r.user.userId)).toHaveLength(1);
    // The purchase is one `subscription` entry of the ledger, written with the debit.
    expect((await ledgerOf(r.user.userId)).filter((e) => e.kind === 'subscription')).toMatchObject([{ amount: -1000, balance_after: 0, plan: s.pro }]);
    await expectLedgerAddsUp(s.tenantId);
  });

  test('with money for all, concurrent purchases each charge and each extend: none is lost', async () => {
    const s = await shop();
    const r = await reseller(s, 4000);
    const answers = await Promise.all(Array.from({ length: 4 }, () => api.request('POST', SUB, { headers: r.headers, json: { plan: s.pro } })));
    expect(answers.map((a) => a.body.code)).toEqual([1, 1, 1, 1]);
    expect((await getUser(r.user.userId))!.balance).toBe(0);
    expect(Math.abs((await getSubscription(r.user.userId))!.expiresAt - (nowSeconds() + 120 * DAY))).toBeLessThan(10);
    expect((await ledgerOf(r.user.userId)).filter((e) => e.kind === 'subscription').map((e) => e.balance_after).sort((a, b) => a - b)).toEqual([0, 1000, 2000, 3000]);
    await expectLedgerAddsUp(s.tenantId);
  });

  test('K concurrent source creates with room for J create exactly J', async () => {
    const s = await shop();
    const r = await reseller(s, 1000);
    await api.request('POST', SUB, { headers: r.headers, json: { plan: s.pro } });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => api.request('POST', SOURCES, { headers: r.headers, json: { name: `S${i}` } })));
    expect(answers.filter((a) => a.body.code === 1)).toHaveLength(3);
    expect(answers.filter((a) => a.body.code === 40003)).toHaveLength(5);
    const listed = await api.request('GET', `${SOURCES}?limit=100`, { headers: r.headers });
    expect((listed.body.data as { sources: unknown[] }).sources).toHaveLength(3);
    expect((await getSubscription(r.user.userId))!.sourceCount).toBe(3);
  });

  test('without a subscription a source cannot be created; on a tenant without plans neither (nothing to subscribe to)', async () => {
    const s = await shop();
    const r = await reseller(s);
    const refused = await api.request('POST', SOURCES, { headers: r.headers, json: { name: 'X' } });
    expect(refused.body).toMatchObject({ code: 40003, data: { error: 'subscription_required' } });
    const plain = await makeUser();
    const res = await api.request('POST', SOURCES, { headers: { Authorization: `Bearer ${plain.token}` }, json: { name: 'X' } });
    expect(res.body).toMatchObject({ code: 40003, data: { error: 'subscription_required' } });
    expect((await api.request('GET', SUB, { headers: { Authorization: `Bearer ${plain.token}` } })).body.data).toMatchObject({ status: 'none', trial_available: false, plans: [] });
  });

  test('bad input is refused with 40002 naming the parameter, and changes nothing', async () => {
    const s = await shop();
    const r = await reseller(s, 5000);
    const cases: [unknown, string, string[]][] = [
      [{}, 'empty_update', []],
      [{ plan: 'x'.repeat(65) }, 'invalid_value', ['plan']],
      [{ plan: 'a b' }, 'invalid_value', ['plan']],
      [{ plan: s.pro, trial: 'maybe' }, 'invalid_value', ['trial']],
      [{ trial: false }, 'invalid_value', ['plan']],
      [{ plan: s.pro, price: 1 }, 'unknown_field', ['price']],
      [{ plan: s.pro, expires_at: 9999999999 }, 'admin_field', ['expires_at']],
      [{ plan: s.pro, uid: 'u_x' }, 'admin_field', ['uid']],
      [{ plan: s.pro, tenant_id: 'default' }, 'admin_field', ['tenant_id']],
    ];
    for (const [json, error, fields] of cases) {
      const res = await api.request('POST', SUB, { headers: r.headers, json });
      expect([res.status, res.body.code, res.body.data]).toEqual([400, 40002, expect.objectContaining({ error, fields })]);
    }
    const get = await api.request('GET', `${SUB}?plan=${s.pro}`, { headers: r.headers });
    expect(get.body).toMatchObject({ code: 40002, data: { error: 'unknown_field', fields: ['plan'] } });
    const unknownPlan = await api.request('POST', SUB, { headers: r.headers, json: { plan: 'p_unknown' } });
    expect(unknownPlan.body).toMatchObject({ code: 40003, data: { error: 'plan_unavailable' } });
    expect((await getUser(r.user.userId))!.balance).toBe(5000);
    expect(await getSubscription(r.user.userId)).toBeUndefined();
  });

  test('every new message is answered in the caller language', async () => {
    const s = await shop();
    const r = await reseller(s);
    const msgs = new Set<string>();
    for (const lang of ['zh', 'en', 'zh-TW', 'vi', 'ar', 'es', 'ru']) {
      const res = await api.request('POST', SOURCES, { headers: { ...r.headers, 'X-Lang': lang }, json: { name: 'X' } });
      expect(res.body.data).toMatchObject({ error: 'subscription_required' });
      msgs.add(String(res.body.msg));
    }
    expect(msgs.size).toBe(7);
  });

  test('the operator sees the subscription in user show and moves its end', async () => {
    const s = await shop();
    const r = await reseller(s);
    expect((await admin('user', 'show', '--user', r.user.userId)).json).toMatchObject({ user_id: r.user.userId, subscription: null });
    await api.request('POST', SUB, { headers: r.headers, json: { trial: true } });
    const shown = await admin('user', 'show', '--user', r.user.userId);
    expect(shown.json).toMatchObject({ subscription: { plan_id: s.trial, trial: true, status: 'active', sources: 0 } });
    const end = (shown.json.subscription as { expires_at: number }).expires_at;
    const extended = await admin('subscription', 'extend', '--user', r.user.userId, '--days', '3');
    expect(extended.json).toMatchObject({ subscription: { expires_at: end + 3 * DAY, status: 'active' } });
    const ended = await admin('subscription', 'extend', '--user', r.user.userId, '--days', '-11');
    expect(ended.json).toMatchObject({ subscription: { expires_at: end - 8 * DAY, status: 'expired' } });
    expect((await admin('subscription', 'extend', '--user', r.user.userId, '--days', '0')).code).toBe(1);
    const stranger = await makeUser();
    expect((await admin('subscription', 'extend', '--user', stranger.user.userId, '--days', '1')).stderr).toContain('no subscription');
  });
});
