/**
 * The rate limit of a route counted in its transaction (`countInTransaction` in the route table: device status,
 * update source). The per-owner count rides in the business code's first `TransactWriteItems` as a conditional
 * update of the counter (shared/db/write-gate.ts, shared/db/transactions.ts): the token's round trip, then one
 * more for the write and the count together. The counter is set to one more than the count this instance last
 * saw on it, on the condition that it still holds that count: so the count stays exact (concurrent requests
 * cannot both take the same count), a refusal changes nothing (the transaction is cancelled whole, counter
 * included), and the request knows its exact count for `X-RateLimit-Remaining` although a transaction returns
 * no values. When the instance's count is stale (another instance or request counted meanwhile), the
 * cancellation hands back the count the counter held and the transaction is sent again with it: one round trip
 * more. A request that ends without a transaction (an error, a refusal of the business code) is counted on its
 * own before it is answered, exactly as before, and its answer decided as if it had been counted first.
 * Handed in by the two routes' handlers, so no other function carries it.
 */
import { counterPart, countFound } from '../../db/repositories/counter-part-repository';
import { countCarrier, outsideGate, sendCarrying, type CountCarrier, type TransactionSent } from '../../db/write-gate';
import { carryCountsWith } from '../../db/transactions';
import { setTimeout as delay } from 'node:timers/promises';
import { DomainError } from '../../domain/errors';
import type { RouteDefinition } from '../../routes/definitions';
import { minuteWindow, type MinuteWindow } from '../../limit-windows';
import type { AppContext, RequestState } from '../request-state';
import { apply, authFailures, bucketKey, chargeRequest, TTL_GRACE_SECONDS, type RateLimitDecision, type TransactionCount } from './rate-limit';

// Transactions made in a request counted in its transaction carry its count.
carryCountsWith(countCarrier);

/**
 * The count each counter of the current minute held when this instance last saw it: what a request counted in
 * its transaction expects to find there. Counts only grow within their minute (the minute is in the key, and a
 * per-owner count is never given back), so an expectation is never above the truth: a stale one costs one
 * cancelled transaction, which hands back the count the counter held, and the transaction is sent again.
 */
const seenCounts = new Map<string, number>();
let seenMinute = '';
/** Bounds the map on an instance that serves many owners in one minute. */
const MAX_SEEN = 10_000;

function seenCount(bucket: string, window: MinuteWindow): number {
  if (window.id !== seenMinute) {
    seenCounts.clear();
    seenMinute = window.id;
  }
  return seenCounts.get(bucket) ?? 0;
}

function sawCount(bucket: string, window: MinuteWindow, count: number): void {
  if (window.id !== seenMinute || count <= (seenCounts.get(bucket) ?? 0)) return;
  if (seenCounts.size >= MAX_SEEN) seenCounts.clear();
  seenCounts.set(bucket, count);
}

/**
 * One request's count on a `countInTransaction` route: carried by its first transaction when it makes one,
 * made on its own (`incrementWithinLimit`) otherwise, never both. The decision it reaches is exact either way:
 * a carried count is written only if the counter held `expected`, below the limit, and is then `expected + 1`.
 */
class CarriedCount implements CountCarrier {
  private decision: RateLimitDecision | undefined;
  private own: Promise<RateLimitDecision> | undefined;
  /** The carried transaction in flight: the request's own count, if one is asked for, waits for its outcome. */
  private flight: Promise<unknown> | undefined;
  private expected = 0;

  constructor(
    private readonly state: RequestState,
    private readonly route: RouteDefinition & { rateLimit: number },
    private readonly window: MinuteWindow,
    private readonly bucket: string,
  ) {}

  carry(items: readonly object[], send: (items: readonly object[]) => Promise<TransactionSent>): Promise<TransactionSent | undefined> {
    if (this.decision || this.own || this.flight) return Promise.resolve(undefined);
    const flight = this.carried(items, send);
    this.flight = flight.finally(() => (this.flight = undefined)).catch(() => undefined);
    return flight;
  }

  private async carried(items: readonly object[], send: (items: readonly object[]) => Promise<TransactionSent>): Promise<TransactionSent | undefined> {
    const counter = items.length;
    for (let attempt = 0; attempt < MAX_CARRIED_ATTEMPTS; attempt++) {
      this.expected = Math.max(this.expected, seenCount(this.bucket, this.window));
      // A count seen at the limit stays there for the minute: the request's own count refuses it (and the
      // transaction, waiting at the gate for that count, fails with the refusal).
      if (this.expected >= this.route.rateLimit) return undefined;
      const part = counterPart(this.bucket, this.expected, this.window.resetAt + TTL_GRACE_SECONDS);
      const sent = await sendCarrying(() => send([...items, part]));
      if (sent.ok) {
        this.counted(this.expected + 1);
        return sent;
      }
      if (!sent.failed.includes(counter)) return { ...sent, returned: sent.returned.slice(0, counter) };
      // The counter held another count than expected: what it held is the truth (counts only grow in a minute).
      const found = countFound(sent.returned[counter]);
      sawCount(this.bucket, this.window, found);
      this.expected = Math.max(this.expected, found);
      if (found >= this.route.rateLimit) {
        this.decision = { allowed: false, limit: this.route.rateLimit, remaining: 0, window: this.window, bucket: this.bucket };
        apply(this.state, this.decision);
      }
      const failed = sent.failed.filter((index) => index !== counter);
      // Another of the caller's conditions failed too: the caller decides (and sends again, expecting `found`).
      if (failed.length > 0) return { ...sent, failed, returned: sent.returned.slice(0, counter) };
    }
    // A counter too busy to guess: the transaction goes as any write, after a count of its own.
    return undefined;
  }

  private counted(count: number): void {
    sawCount(this.bucket, this.window, count);
    this.decision = { allowed: true, limit: this.route.rateLimit, remaining: Math.max(0, this.route.rateLimit - count), window: this.window, bucket: this.bucket };
  }

  /** The request's decision: the carried one, or its own count, made now if it has not been (fail closed). */
  async decided(): Promise<RateLimitDecision> {
    while (this.flight) await this.flight;
    if (this.decision) return this.decision;
    // Made outside the write gate: the count is what the gate waits for.
    this.own ??= outsideGate(() => chargeOwn(this.route, this.state)).then((decision) => {
      sawCount(this.bucket, this.window, this.route.rateLimit - decision.remaining);
      return (this.decision = decision);
    });
    return this.own;
  }
}

/**
 * The request's own count (`incrementWithinLimit`). A counter that another request's transaction is writing at
 * that instant refuses a plain write (TransactionConflict), which the SDK does not retry: it is sent again after
 * a moment. Only these routes' counters are ever written by a transaction.
 */
async function chargeOwn(route: RouteDefinition & { rateLimit: number }, state: RequestState): Promise<RateLimitDecision> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await chargeRequest(route, { user: state.user!.userId }, state.now);
    } catch (error) {
      const cause = (error as { cause?: { name?: string } }).cause;
      if (cause?.name !== 'TransactionConflictException' || attempt >= CONFLICT_ATTEMPTS) throw error;
      await delay(Math.random() * 10 * attempt);
    }
  }
}

const CONFLICT_ATTEMPTS = 5;

/** How often a transaction is sent again with the count its counter held, before the count is made on its own. */
const MAX_CARRIED_ATTEMPTS = 8;

/**
 * A `countInTransaction` route's limit (see the route table): the count rides in the business code's first
 * transaction (shared/db/transactions.ts), or is made on its own when the request writes nothing else first
 * or ends without one; the headers and the refusal are those of a count made before the business code.
 */
export const transactionCount: TransactionCount = (route) => {
  const counts = new WeakMap<RequestState, CarriedCount>();
  return {
    name: 'rateLimit',
    before: async ({ context }) => {
      const state = context.app;
      const window = minuteWindow(state.now);
      const count = new CarriedCount(state, route, window, bucketKey(route, { user: state.user!.userId }, window));
      counts.set(state, count);
      state.countCarrier = count;
      state.counted = async () => apply(state, await count.decided());
    },
    after: async ({ context }) => {
      const count = counts.get(context.app);
      if (count) apply(context.app, await count.decided());
    },
    onError: async (request) => {
      const state = request.context.app;
      if (!state) return;
      const count = counts.get(state);
      if (!count) return chargeFailedToken(route, request);
      // The limit decides first, as if counted before the business code: a refusal or an outage wins.
      try {
        apply(state, await count.decided());
      } catch (refusal) {
        request.error = refusal as Error;
      }
    },
  };
};

/** A request refused for its token: counted against its source IP (the route's limit). */
async function chargeFailedToken(route: RouteDefinition & { rateLimit: number }, request: { context: AppContext; error: unknown }): Promise<void> {
  const state = request.context.app;
  const error = request.error;
  if (!(error instanceof DomainError) || !authFailures.has(error.kind)) return;
  try {
    apply(state, await chargeRequest(route, { ip: state.ip }, state.now));
  } catch (refusal) {
    request.error = refusal as Error;
  }
}

