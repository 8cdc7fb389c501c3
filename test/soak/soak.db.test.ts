/**
 * A short soak on every `npm test`: the product started as `npm start` starts it, 90 seconds of the mix of
 * every route — customers capturing through the Profile Service and using their page's session, webhooks
 * delivered to a verifying receiver — with Apple faults (a registration answered after the add stopped
 * waiting among them), an account revoked and the API process killed with adds in flight, then the
 * reconciliation. Any violated invariant, any 5xx no injected fault explains, or any route of the route
 * table (or customer step) that never once succeeded fails it (the mix tops up rare branches until each has
 * succeeded, so a slow machine sends fewer requests, not fewer routes). Nothing here depends on how fast the
 * machine is. Paced at 20 requests a second (about a quarter of what four clients get answered here): the
 * routes, faults and invariants are the same, and the other test files keep most of the two cores.
 * `npm run soak` runs the same for longer, unpaced.
 */
import { runSoak } from './run-soak';

test('90 seconds of mixed traffic with faults: every route succeeded, no violation, every 5xx accounted for', async () => {
  const result = await runSoak({ minutes: 1.5, concurrency: 4, usersPerTenant: 2, requestsPerSecond: 20, log: () => undefined });
  // The table is what a reader needs when this fails.
  if (result.violations.length || result.unsent.length || result.neverSucceeded.length) console.log(result.table);
  expect(result.violations).toEqual([]);
  expect(result.unsent).toEqual([]);
  expect(result.neverSucceeded).toEqual([]);
  expect(result.unaccounted5xx).toEqual([]);
}, 1_200_000);
