import { useMessages } from '../i18n/localize';
import { tokenMessages } from '../i18n/messages/token';
import { consoleSessionMessages } from '../i18n/messages/console-session';
import type { AuthKind, RouteDefinition } from '../routes/definitions';
import { rateLimit, type TransactionCount } from './middlewares/rate-limit';
import { tokenAuth, type ReadWithToken } from './middlewares/token-auth';
import type { ApiEvent, AppContext, ApiResult, AuthenticatedState, RequestState } from './request-state';
import { requestChain, type BusinessHandler } from './request-chain';
import { withWriteGate } from '../db/write-gate';

export type { BusinessHandler } from './request-chain';

/** What a route's business code receives: the caller is known unless the route is public. */
export type StateFor<A extends AuthKind> = A extends 'none' ? RequestState : AuthenticatedState;

// Token auth's own answers, a console session's included.
useMessages(tokenMessages, consoleSessionMessages);

/**
 * The Middy chain of a function, configured from its route-table entry (its own constant in shared/routes/<area>.ts, so
 * the bundle carries that entry and not the whole table): the shared request chain, then token auth, then the
 * rate limit. The rate limit follows auth (it counts per token owner) and precedes the business code, so a
 * refused request changes nothing (a `limitAlongside` route has its count made while its reads run, and its
 * writes held until the count is in: shared/db/write-gate.ts; a `countInTransaction` route has it carried by its
 * transaction, with `transactionCount` handed in). Public routes use `createPublicHandler`, which carries no token code (this one serves them
 * too, only heavier); so do session routes (the customer's), which only it serves.
 */
export function createHandler<R extends RouteDefinition & { auth: Exclude<AuthKind, 'session'> }>(route: R, business: BusinessHandler<StateFor<R['auth']>>, options: { readWithToken?: ReadWithToken; transactionCount?: TransactionCount } = {}) {
  return requestChain(route)
    .use(tokenAuth(route.auth, options.readWithToken, route.writesOnGet === true))
    .use(rateLimit(route, options.transactionCount))
    .handler(async (_event: ApiEvent, context: AppContext) => {
      // `businessState` checks at run time what the route table's auth kind promises `business` at compile time.
      const state = businessState(route.auth, context.app) as StateFor<R['auth']>;
      const { counted, countCarrier } = context.app;
      return (await (counted ? withWriteGate(counted, () => business(state), countCarrier) : business(state))) as unknown as ApiResult;
    });
}

/**
 * The state as the route's auth kind promises it. Token auth runs earlier in the chain and refuses any request
 * it cannot authenticate, so a missing token owner here is a wiring fault, never the caller's.
 */
function businessState(auth: AuthKind, state: RequestState): RequestState | AuthenticatedState {
  if (auth === 'none') return state;
  const { user } = state;
  if (!user) throw new Error(`${state.route.function}: no token owner after token auth`);
  return { ...state, user, actor: { tenantId: state.tenant.tenantId, userId: user.userId } };
}
