import type { RouteDefinition } from '../routes/definitions';
import { customerSession } from './middlewares/customer-session';
import { ipRateLimits } from './middlewares/rate-limit';
import type { ApiEvent, AppContext, ApiResult, RequestState, SessionState } from './request-state';
import { requestChain, type BusinessHandler } from './request-chain';

/**
 * The chain of a public route (auth `none`: the feed, the gate, the icon, the UDID capture pages; `session`:
 * what the customer's proven device does from its page): the shared request chain and the route's per-IP
 * limits, then, on a session route, session auth; without token auth or per-user limits, which such a route
 * never runs and so need not carry.
 */
export function createPublicHandler<R extends RouteDefinition & { auth: 'none' | 'session' }>(
  route: R,
  business: BusinessHandler<R['auth'] extends 'session' ? SessionState : RequestState>,
) {
  const chain = requestChain(route).use(ipRateLimits(route));
  if (route.auth === 'session') chain.use(customerSession());
  return chain.handler(async (_event: ApiEvent, context: AppContext) => {
    const state = context.app;
    // Session auth runs earlier in the chain and refuses a request without a device: none here is a wiring fault.
    if (route.auth === 'session' && !state.device) throw new Error(`${route.function}: no device after session auth`);
    return (await business(state as SessionState)) as unknown as ApiResult;
  });
}
