import type { MiddlewareObj } from '@middy/core';
import type { RouteDefinition, RouteOperation } from '../../routes';
import type { ApiEvent, ApiResult, AppContext, Params } from '../request-state';

/** The first of the route's operations that the request matches. */
export function matchOperation(operations: readonly RouteOperation[], method: string, params: Params): RouteOperation | undefined {
  return operations.find((op) => (op.param === undefined || Object.hasOwn(params, op.param)) && (op.method === undefined || op.method === method.toUpperCase()));
}

/**
 * Names the request's operation on routes that serve several, once the parameters are known, and switches
 * to that operation's envelope. Its limits and its business code follow from the name.
 */
export function routeOperation(route: RouteDefinition): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext>[] {
  const operations = route.operations;
  if (!operations?.length) return [];
  return [
    {
      name: 'routeOperation',
      before: ({ event, context }) => {
        const state = context.app;
        const operation = matchOperation(operations, event.httpMethod ?? 'GET', state.params);
        state.operation = operation?.name;
        state.envelope = operation?.envelope ?? route.envelope;
      },
    },
  ];
}
