import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpUrlencodeBodyParser from '@middy/http-urlencode-body-parser';
import { useMessages } from '../i18n/localize';
import { commonMessages } from '../i18n/messages/common';
import { rateLimitMessages } from '../i18n/messages/rate-limit';
import { newsLookupMessages } from '../i18n/messages/news-lookup';
import { logger } from '../logger';
import type { AuthKind, RouteDefinition } from '../routes';
import { envelope } from './middlewares/envelope';
import { httpsOnly } from './middlewares/https-only';
import { rawInputLimits } from './middlewares/input-limits';
import { routeOperation } from './middlewares/operation';
import { parameters } from './middlewares/parameters';
import { rateLimit } from './middlewares/rate-limit';
import { requestState } from './middlewares/request-state';
import { tenantAndLanguage } from './middlewares/tenant-language';
import { tokenAuth } from './middlewares/token-auth';
import type { ApiEvent, ApiResult, AppContext, AuthenticatedState, BusinessResult, RequestState } from './request-state';

/** What a route's business code receives: the caller is known unless the route is public. */
export type StateFor<A extends AuthKind> = A extends 'none' ? RequestState : AuthenticatedState;

// The chain's own answers: validation, auth, limits, internal errors.
// The chain answers a malformed news id in a path with news_not_found (input-limits.ts).
useMessages(commonMessages, rateLimitMessages, newsLookupMessages);

export type BusinessHandler<S extends RequestState = RequestState> = (state: S) => Promise<BusinessResult>;

/**
 * The Middy chain every function shares, configured from the function's route-table entry (its own constant in shared/routes.ts, so the
 * bundle carries that entry and not the whole table). Order matters:
 * the envelope comes first so its `onError` sees every failure, and the language is known before anything
 * that can fail on the caller's input. Structural limits run before the body is parsed (size, path ids) and
 * as it is merged into `params` (depth, keys, numbers, control characters). The rate limit follows auth (it counts per token owner) and precedes the
 * business code, so a refused request changes nothing (a `limitAlongside` route, which writes nothing, has its
 * count made while its one read runs).
 */
export function createHandler<R extends RouteDefinition>(route: R, business: BusinessHandler<StateFor<R['auth']>>) {
  return middy<ApiEvent, ApiResult, Error, AppContext>()
    // Every log line carries the Lambda context; the event is never logged (tokens travel in it).
    .use(injectLambdaContext(logger, { logEvent: false }))
    .use(httpHeaderNormalizer())
    .use(requestState(route))
    .use(envelope(route))
    .use(httpsOnly())
    .use(tenantAndLanguage())
    .use(rawInputLimits())
    .use(httpJsonBodyParser({ disableContentTypeError: true }))
    .use(httpUrlencodeBodyParser({ disableContentTypeError: true }))
    .use(routeOperation(route))
    .use(parameters())
    .use(tokenAuth(route.auth))
    .use(rateLimit(route))
    .handler(async (_event: ApiEvent, context: AppContext) => {
      // `businessState` checks at run time what the route table's auth kind promises `business` at compile time.
      const state = businessState(route.auth, context.app) as StateFor<R['auth']>;
      return (await business(state)) as unknown as ApiResult;
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
