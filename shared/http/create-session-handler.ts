import type { RouteDefinition } from '../routes/definitions';
import { customerSession } from './middlewares/customer-session';
import { ipRateLimits } from './middlewares/rate-limit';
import type { ApiEvent, AppContext, ApiResult, SessionState } from './request-state';
import { requestChain, type BusinessHandler } from './request-chain';

/**
 * The chain of a session route (auth `session`: what the customer's proven device does from its page): the
 * shared request chain, the route's per-IP limits, then session auth, so the business code receives the
 * proven device. Its own module, so the public functions carry no session code.
 */
export function createSessionHandler<R extends RouteDefinition & { auth: 'session' }>(route: R, business: BusinessHandler<SessionState>) {
  return requestChain(route)
    .use(ipRateLimits(route))
    .use(customerSession())
    .handler(async (_event: ApiEvent, context: AppContext) => {
      const { device } = context.app;
      // Session auth refuses a request without a device earlier in the chain: none here is a wiring fault.
      if (!device) throw new Error(`${route.function}: no device after session auth`);
      return (await business({ ...context.app, device })) as unknown as ApiResult;
    });
}
