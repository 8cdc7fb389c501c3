import type { MiddlewareObj } from '@middy/core';
import { giveBack, incrementWithinLimit } from '../../db/repositories/rate-limit-repository';
import { logger } from '../../logger';
import { DomainError, type ErrorKind } from '../../domain/errors';
import type { IpLimit, RouteDefinition } from '../../routes/definitions';
import type { ApiEvent, ApiResult, AppContext, RequestState } from '../request-state';
import type { MessageKey } from '../../i18n/localize';

import { minuteWindow, WINDOW_MS, type MinuteWindow, type WindowKind } from '../../limit-windows';

/** What a refusal says about a longer window (the failure limits): the minute's is the plain `rate_limited`. */
const REFUSAL_MESSAGE: Partial<Record<WindowKind, MessageKey>> = { '10 minutes': 'rate_limited_ten_minutes', hour: 'rate_limited_hourly' };
/** Counters outlive their minute a little so a late request never finds its window already swept. */
export const TTL_GRACE_SECONDS = 300;

/** Who a request is counted against: its token owner, or its source IP when it has no valid token. */
export type RateLimitOwner = { user: string } | { ip: string };

export function bucketKey(route: Pick<RouteDefinition, 'function' | 'rateLimitGroup'>, owner: RateLimitOwner, window: MinuteWindow): string {
  const who = 'user' in owner ? `user:${owner.user}` : `ip:${owner.ip}`;
  return `${route.rateLimitGroup ?? route.function}#${who}#${window.id}`;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  window: MinuteWindow;
  /** The counter this request was counted in (what a refund gives back to). */
  bucket: string;
}

/**
 * Counts one request in `bucket` against `limit` for `window`. A limiter that cannot be reached refuses the
 * request (fail closed): an outage must not switch the limits off.
 */
async function charge(bucket: string, limit: number, window: MinuteWindow): Promise<RateLimitDecision> {
  let hit;
  try {
    hit = await incrementWithinLimit(bucket, limit, window.resetAt + TTL_GRACE_SECONDS);
  } catch (cause) {
    throw new DomainError('unavailable', 'rate_limit_unavailable', { cause });
  }
  return { allowed: hit.allowed, limit, remaining: Math.max(0, limit - hit.count), window, bucket };
}

/** Counts one request of `owner` on `route` in the current minute (fail closed). */
export function chargeRequest(route: RouteDefinition & { rateLimit: number }, owner: RateLimitOwner, nowMs: number): Promise<RateLimitDecision> {
  const window = minuteWindow(nowMs);
  return charge(bucketKey(route, owner, window), route.rateLimit, window);
}

const ipWindow = (limit: IpLimit, nowMs: number) => minuteWindow(nowMs, WINDOW_MS[limit.window]);

/** A public route's counter: the window's kind, the IP and, when the limit is per path parameter, its value. */
export function ipBucketKey(route: Pick<RouteDefinition, 'function'>, limit: IpLimit, ip: string, pathParams: Record<string, string>, nowMs: number): string {
  if (limit.everyone) ip = '*';
  const scope = limit.perPathParam ? `#${limit.perPathParam}:${pathParams[limit.perPathParam] ?? ''}` : '';
  return `${route.function}#${limit.window}#ip:${ip}${scope}#${ipWindow(limit, nowMs).id}`;
}

/** Counts one request of a public route against one of its per-IP limits (fail closed). */
export function chargeIpLimit(route: Pick<RouteDefinition, 'function'>, limit: IpLimit, ip: string, pathParams: Record<string, string>, nowMs: number): Promise<RateLimitDecision> {
  return charge(ipBucketKey(route, limit, ip, pathParams, nowMs), limit.limit, ipWindow(limit, nowMs));
}

/** The headers every limited response carries, and the 429 error when the request was refused. */
export function apply(state: RequestState, decision: RateLimitDecision, window: WindowKind = 'minute'): void {
  const headers = state.responseHeaders;
  headers['X-RateLimit-Limit'] = String(decision.limit);
  headers['X-RateLimit-Remaining'] = String(decision.remaining);
  headers['X-RateLimit-Reset'] = String(decision.window.resetAt);
  if (decision.allowed) return;
  headers['Retry-After'] = String(decision.window.retryAfter);
  throw new DomainError('rate_limited', 'rate_limited', {
    ...(REFUSAL_MESSAGE[window] ? { messageKey: REFUSAL_MESSAGE[window] } : {}),
    params: { limit: decision.limit, retry_after: decision.window.retryAfter },
    data: { limit: decision.limit, retry_after: decision.window.retryAfter },
  });
}

/** A `countInTransaction` route's limit middleware (shared/http/middlewares/transaction-count.ts). */
export type TransactionCount = (route: RouteDefinition & { rateLimit: number }) => MiddlewareObj<ApiEvent, ApiResult, Error, AppContext>;

/**
 * Counts made beside the credential's read for the owner the instance remembered (shared/http/owner-count-ahead.ts),
 * once the credential proved to be that owner's: the request's count, made already.
 */
export const countsAhead = new WeakMap<RequestState, Promise<RateLimitDecision>>();

/** Failed authentications: counted per source IP so tokens cannot be guessed at speed. */
export const authFailures: ReadonlySet<ErrorKind> = new Set(['token_missing', 'token_invalid', 'token_expired']);

function hasLimit(route: RouteDefinition): route is RouteDefinition & { rateLimit: number } {
  return route.rateLimit !== null;
}

/**
 * Exact per-minute limits from the route table. Registered after token auth: an authenticated request is
 * counted against its user before the business code changes anything, so a refused request writes nothing. A
 * request whose token is missing or invalid never reaches `before`; `onError` counts it against its source IP
 * instead, in a bucket of its own, so a valid user is never slowed by someone else's bad attempts.
 * A route marked `limitAlongside` has its count made while the business code reads: the business code runs
 * behind the write gate (shared/db/write-gate.ts), which holds every write until the count is in and fails it
 * with the refusal, and the decision is applied again after the business code, where a refusal replaces
 * whatever it answered, so the caller sees the same 429 and nothing was written.
 * Public routes are limited per caller IP by their `ipLimits` instead; a route with neither gets no
 * middleware at all.
 */
export function rateLimit(route: RouteDefinition, countInTransaction?: TransactionCount): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext>[] {
  if (!hasLimit(route)) return ipRateLimits(route);
  if (route.countInTransaction) {
    // The route hands its implementation in (shared/http/middlewares/transaction-count.ts), so only these routes carry it.
    if (!countInTransaction) throw new Error(`${route.function}: counted in its transaction, but no transaction count was handed in`);
    return [countInTransaction(route)];
  }
  // Marks requests already counted, so a failure later in the same request is not counted twice.
  const charged = new WeakSet<RequestState>();
  // `limitAlongside`: the count in flight while the business code runs (it rejects on a limiter outage).
  const inFlight = new WeakMap<RequestState, Promise<RateLimitDecision>>();
  /** The in-flight count's outcome applied to the request: throws the 429 or the limiter's outage. */
  const settle = async (state: RequestState) => {
    const pending = inFlight.get(state);
    if (pending) apply(state, await pending);
  };
  const middleware: MiddlewareObj<ApiEvent, ApiResult, Error, AppContext> = {
    name: 'rateLimit',
    before: async ({ context }) => {
      const state = context.app;
      charged.add(state);
      const owner: RateLimitOwner = state.user ? { user: state.user.userId } : { ip: state.ip };
      // A count already made beside the credential's read, for the owner this instance remembered it by.
      const decision = countsAhead.get(state) ?? chargeRequest(route, owner, state.now);
      if (!route.limitAlongside) return apply(state, await decision);
      // Heard later (the write gate, `after`, `onError`); marked handled so an outage is never an unhandled rejection.
      decision.catch(() => undefined);
      inFlight.set(state, decision);
      state.counted = () => settle(state);
    },
    after: async ({ context }) => settle(context.app),
    onError: async (request) => {
      const state = request.context.app;
      if (!state) return;
      if (inFlight.has(state)) {
        // The limit was the first thing to decide this request: its refusal or outage wins over the business
        // code's own error, as it would have had it been counted first.
        try {
          await settle(state);
        } catch (refusal) {
          request.error = refusal as Error;
        }
        return;
      }
      const error = request.error;
      if (charged.has(state) || !(error instanceof DomainError) || !authFailures.has(error.kind)) return;
      charged.add(state);
      try {
        apply(state, await chargeRequest(route, { ip: state.ip }, state.now));
      } catch (refusal) {
        request.error = refusal as Error;
      }
    },
  };
  return [middleware];
}

/** A public route's limits: its per-IP limits, if it has any (all a public chain needs of this module). */
export function ipRateLimits(route: RouteDefinition): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext>[] {
  return route.ipLimits?.length ? [ipRateLimit(route, route.ipLimits)] : [];
}

/** The limits that apply to this request: those of its operation, and those for every request. */
export function applicableIpLimits(limits: readonly IpLimit[], operation: string | undefined): IpLimit[] {
  return limits.filter((limit) => limit.operation === undefined || limit.operation === operation);
}

/**
 * A public route's per-IP limits, all charged before the business code runs. A limit that counts only
 * failures is charged like any other (so concurrent attempts cannot overrun it) and given back when the
 * request succeeds; once failures have used it up, every request of its operation is refused until the
 * window ends.
 */
function ipRateLimit(route: RouteDefinition, limits: readonly IpLimit[]): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext> {
  if (limits.some((l) => l.alongside && l.counts === 'failures')) throw new Error(`${route.function}: a limit counting failures cannot be counted alongside`);
  const refundOnSuccess = new WeakMap<RequestState, RateLimitDecision[]>();
  // `alongside` limits: their counts in flight while the business code runs (settled, so none rejects unheard).
  const inFlight = new WeakMap<RequestState, Promise<Array<{ decision: RateLimitDecision; window: WindowKind } | { error: unknown }>>>();
  /** The in-flight counts applied to the request (throws the first 429 or outage), once. */
  const settle = async (state: RequestState) => {
    const pending = inFlight.get(state);
    if (!pending) return;
    inFlight.delete(state);
    for (const outcome of await pending) {
      if ('error' in outcome) throw outcome.error;
      apply(state, outcome.decision, outcome.window);
    }
  };
  return {
    name: 'ipRateLimit',
    before: async ({ context }) => {
      const state = context.app;
      const applicable = applicableIpLimits(limits, state.operation);
      const alongside = applicable.filter((l) => l.alongside);
      if (alongside.length) {
        inFlight.set(
          state,
          Promise.all(
            alongside.map((limit) =>
              chargeIpLimit(route, limit, state.ip, state.pathParams, state.now).then(
                (decision) => ({ decision, window: limit.window }),
                (error: unknown) => ({ error }),
              ),
            ),
          ),
        );
      }
      for (const limit of applicable.filter((l) => !l.alongside)) {
        const decision = await chargeIpLimit(route, limit, state.ip, state.pathParams, state.now);
        if (limit.counts === 'failures') {
          // A refusal is not a failure of the operation: its count goes straight back, so only attempts that
          // ran and failed use the limit up (a concurrent refusal must not outlive the success it raced).
          if (!decision.allowed) await giveBackQuietly(decision.bucket);
          else refundOnSuccess.set(state, [...(refundOnSuccess.get(state) ?? []), decision]);
        }
        apply(state, decision, limit.window);
      }
    },
    after: async ({ context }) => {
      const state = context.app;
      await settle(state);
      for (const decision of refundOnSuccess.get(state) ?? []) {
        if (await giveBackQuietly(decision.bucket)) state.responseHeaders['X-RateLimit-Remaining'] = String(Math.min(decision.limit, decision.remaining + 1));
      }
    },
    onError: async (request) => {
      const state = request.context.app;
      if (!state || !inFlight.has(state)) return;
      // The limit was the first thing to decide this request: its refusal or outage wins over the business
      // code's own error, as it would have had it been counted first.
      try {
        await settle(state);
      } catch (refusal) {
        request.error = refusal as Error;
      }
    },
  };
}

/** Gives a count back; a failure only leaves one count too many until the window ends, so it is logged, not thrown. */
async function giveBackQuietly(bucket: string): Promise<boolean> {
  try {
    await giveBack(bucket);
    return true;
  } catch (error) {
    logger.warn('Rate-limit refund failed', { bucket, error: error as Error });
    return false;
  }
}
