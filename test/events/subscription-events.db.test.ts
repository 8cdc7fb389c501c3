/**
 * `subscription.expiring` and `subscription.expired` from their real trigger: a plan bought through the API,
 * time moving towards its end, and the reservation worker's notice pass. Once per end; a renewal starts a
 * new cycle.
 */
import { setClock } from '../../shared/clock';
import { runSubscriptionNoticePass } from '../../shared/domain/events/subscription-notices';
import { admin } from '../support/admin-cli';
import { startTestApi, type TestApi } from '../support/api';
import { makeTenant, makeUser } from '../support/fixtures';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const DAY = 86_400;

interface ListedEvent {
  type: string;
  created: number;
  data: Record<string, unknown>;
}

async function planBuyer() {
  const { tenantId, host } = await makeTenant('en');
  const plan = await admin('plan', 'create', '--tenant', tenantId, '--name', 'Pro', '--price', '1000', '--days', '30', '--sources', '3', '--apps-per-source', '5', '--published-per-source', '5');
  const { user, token } = await makeUser({ tenantId, balance: 5000 });
  const headers = { Authorization: `Bearer ${token}`, Host: host, 'X-Lang': 'en' };
  return { tenantId, userId: user.userId, planId: String(plan.json.plan_id), headers };
}

/** A pass of the notice job at `now`, with the service's clock there too (events are stamped with it). */
async function passAt(now: number) {
  const restore = setClock(() => now * 1000);
  try {
    return await runSubscriptionNoticePass(now);
  } finally {
    restore();
  }
}

async function eventsOf(headers: Record<string, string>): Promise<ListedEvent[]> {
  const res = await api.request('GET', '/api/user/events?types=subscription.expiring,subscription.expired', { headers });
  expect(res.body.code).toBe(1);
  return res.body.data!.events as ListedEvent[];
}

test('a subscription is announced once before it ends and once when it ended; a renewal starts again', async () => {
  const buyer = await planBuyer();
  const bought = await api.request('POST', '/api/appstore/manage/subscription', { headers: buyer.headers, json: { plan: buyer.planId } });
  expect(bought.body.code).toBe(1);
  const end = bought.body.data!.expires_at as number;

  // Well before the tenant's notice period (7 days by default): nothing.
  expect(await passAt(end - 20 * DAY)).toMatchObject({ expiring: 0, expired: 0 });
  expect(await eventsOf(buyer.headers)).toEqual([]);

  // Inside it: one `subscription.expiring`, however often the pass runs.
  await passAt(end - 3 * DAY);
  await passAt(end - 2 * DAY);
  let events = await eventsOf(buyer.headers);
  expect(events).toEqual([expect.objectContaining({ type: 'subscription.expiring', data: { plan_id: buyer.planId, plan_name: 'Pro', trial: false, expires_at: end, days_left: 3 } })]);

  // Past the end: one `subscription.expired`.
  await passAt(end + 60);
  await passAt(end + 120);
  events = await eventsOf(buyer.headers);
  expect(events.map((e) => e.type)).toEqual(['subscription.expiring', 'subscription.expired']);
  expect(events[1]!.data).toEqual({ plan_id: buyer.planId, plan_name: 'Pro', trial: false, expires_at: end });

  // Bought again: the new end is announced in its turn.
  const again = await api.request('POST', '/api/appstore/manage/subscription', { headers: buyer.headers, json: { plan: buyer.planId } });
  expect(again.body.code).toBe(1);
  const newEnd = again.body.data!.expires_at as number;
  await passAt(newEnd - DAY);
  events = await eventsOf(buyer.headers);
  expect(events.map((e) => e.type)).toEqual(['subscription.expiring', 'subscription.expired', 'subscription.expiring']);
  expect(events[2]!.data).toMatchObject({ expires_at: newEnd, days_left: 1 });
});

test("the operator's extension moves the end: a notice already sent for the old end is sent again for the new one", async () => {
  const buyer = await planBuyer();
  const bought = await api.request('POST', '/api/appstore/manage/subscription', { headers: buyer.headers, json: { plan: buyer.planId } });
  const end = bought.body.data!.expires_at as number;
  await passAt(end - 2 * DAY);
  expect((await admin('subscription', 'extend', '--user', buyer.userId, '--days', '10')).code).toBe(0);
  // The old end passes with no `expired`: the subscription runs on.
  await passAt(end + 60);
  await passAt(end + 8 * DAY);
  const events = await eventsOf(buyer.headers);
  expect(events.map((e) => [e.type, e.data.expires_at])).toEqual([
    ['subscription.expiring', end],
    ['subscription.expiring', end + 10 * DAY],
  ]);
});
