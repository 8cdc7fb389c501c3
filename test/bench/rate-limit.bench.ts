/**
 * The limiter's cost. Read the `rate-limits` lines: DynamoDB calls per request (expected: exactly one
 * UpdateItem, allowed or refused) and the milliseconds they add to each request.
 */
import { makeOwner, type Owner } from '../support/fixtures';
import { chargeRequest } from '../../shared/http/middlewares/rate-limit';
import { routeFor, type RouteDefinition } from '../../shared/routes';
import type { Benchmark } from './harness';

const updateSource = routeFor('update-source') as RouteDefinition & { rateLimit: number };
const limit = updateSource.rateLimit;
// A fixed minute keeps the direct-call cases independent of when the run crosses a minute boundary.
const fixedNow = Date.UTC(2031, 0, 1, 12, 0, 30);

/** Enough users that none reaches the limit: each takes `limit` consecutive iterations. */
async function owners(iterations: number): Promise<Owner[]> {
  return Promise.all(Array.from({ length: Math.ceil((iterations + 1) / limit) + 1 }, () => makeOwner()));
}

function expectStatus(actual: number, allowed: number[], what: string): void {
  if (!allowed.includes(actual)) throw new Error(`${what}: HTTP ${actual}, expected ${allowed.join(' or ')}`);
}

export const benchmarks: Benchmark[] = [
  {
    name: 'limiter alone, request allowed',
    iterations: 300,
    prepare: async () => async (i) => {
      const decision = await chargeRequest(updateSource, { user: `bench-allowed-${Math.floor(i / limit)}` }, fixedNow);
      if (!decision.allowed) throw new Error('an allowed request was refused');
    },
  },
  {
    name: 'limiter alone, request refused (owner at the limit)',
    iterations: 300,
    prepare: async () => {
      const owner = { user: 'bench-exhausted' };
      for (let i = 0; i < limit; i++) await chargeRequest(updateSource, owner, fixedNow);
      return async () => {
        const decision = await chargeRequest(updateSource, owner, fixedNow);
        if (decision.allowed) throw new Error('a request over the limit was allowed');
      };
    },
  },
  {
    name: 'PATCH update-source over HTTP, valid token (limiter included)',
    iterations: 200,
    prepare: async ({ api }) => {
      const users = await owners(200);
      return async (i) => {
        const owner = users[Math.floor(i / limit)]!;
        const res = await api.request('PATCH', `/api/appstore/manage/sources/${owner.source.source_id}`, { headers: owner.bearer, json: { name: `bench ${i}` } });
        expectStatus(res.status, [200], 'update-source');
      };
    },
  },
  {
    name: 'PATCH update-source over HTTP, invalid token (counted per IP)',
    iterations: 200,
    prepare: async ({ api }) => {
      const [owner] = await owners(0);
      return async () => {
        const res = await api.request('PATCH', `/api/appstore/manage/sources/${owner!.source.source_id}`, { headers: { Authorization: 'Bearer bench-invalid' }, json: { name: 'x' } });
        expectStatus(res.status, [401, 429], 'invalid token');
      };
    },
  },
];
