import type { MiddlewareObj } from '@middy/core';
import { nowMs } from '../../clock';
import { builtInDefaultTenant } from '../../domain/tenants/tenant';
import type { RouteDefinition } from '../../routes';
import type { ApiEvent, ApiResult, AppContext } from '../request-state';

/** Seeds the request state with what is known before any lookup, so an early failure can still answer. */
export function requestState(route: RouteDefinition): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext> {
  return {
    name: 'requestState',
    before: ({ event, context }) => {
      context.app = {
        route,
        ip: event.requestContext?.identity?.sourceIp ?? '',
        now: nowMs(),
        lang: 'zh',
        tenant: builtInDefaultTenant(),
        params: {},
        pathParams: Object.fromEntries(Object.entries(event.pathParameters ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string')),
        user: undefined,
        responseHeaders: {},
      };
    },
  };
}
