import type { RouteDefinition } from '../routes/definitions';
import { ipRateLimits } from './middlewares/rate-limit';
import type { ApiEvent, AppContext, ApiResult, RequestState } from './request-state';
import { requestChain, type BusinessHandler } from './request-chain';

/**
 * The chain of a public route (auth `none`: the feed, the gate, the icon, the UDID capture pages): the shared
 * request chain and the route's per-IP limits, without token auth or per-user limits, which such a route never
 * runs and so need not carry. Session routes (the customer's) use `createSessionHandler`.
 */
export function createPublicHandler<R extends RouteDefinition & { auth: 'none' }>(route: R, business: BusinessHandler<RequestState>) {
  return requestChain(route)
    .use(ipRateLimits(route))
    .handler(async (_event: ApiEvent, context: AppContext) => (await business(context.app)) as unknown as ApiResult);
}
