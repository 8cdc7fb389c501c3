import type { MiddlewareObj } from '@middy/core';
import { nowMs } from '../../clock';
import { builtInDefaultTenant } from '../../records/tenant';
import { selectLanguage } from '../../i18n/negotiate';
import type { RouteDefinition } from '../../routes/definitions';
import type { ApiEvent, ApiResult, AppContext } from '../request-state';

/** Seeds the request state with what is known before any lookup, so an early failure can still answer. */
export function requestState(route: RouteDefinition): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext> {
  return {
    name: 'requestState',
    before: ({ event, context }) => {
      context.app = {
        route,
        operation: undefined,
        envelope: route.envelope,
        ip: event.requestContext?.identity?.sourceIp ?? '',
        now: nowMs(),
        // From the headers alone for now; the tenant's default refines it once the tenant is known.
        lang: selectLanguage({ xLang: event.headers?.['x-lang'], acceptLanguage: event.headers?.['accept-language'] }),
        tenant: builtInDefaultTenant(),
        params: {},
        pathParams: Object.fromEntries(Object.entries(event.pathParameters ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string')),
        user: undefined,
        responseHeaders: {},
        event,
      };
    },
  };
}
