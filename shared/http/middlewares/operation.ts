import type { MiddlewareObj } from '@middy/core';
import type { RouteDefinition, RouteOperation } from '../../routes/definitions';
import type { ApiEvent, ApiResult, AppContext, Params } from '../request-state';

/** The first of the route's operations that the request matches. */
export function matchOperation(operations: readonly RouteOperation[], method: string, params: Params): RouteOperation | undefined {
  return operations.find((op) => (op.param === undefined || Object.hasOwn(params, op.param)) && (op.method === undefined || op.method === method.toUpperCase()));
}

/** The parameter names a request carries, from the query string and a parsed body, before any check. */
function parameterNames(event: ApiEvent): Params {
  const body: unknown = event.body;
  const bodyParams = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Params) : {};
  return { ...(event.multiValueQueryStringParameters ?? {}), ...(event.queryStringParameters ?? {}), ...bodyParams };
}

/**
 * Names the request's operation on routes that serve several, as soon as the body is parsed and before
 * the parameters are checked, and switches to that operation's envelope: even a refusal of hostile input
 * answers in the envelope the caller's client reads. The operation's limits and business code follow from
 * the name.
 */
export function routeOperation(route: RouteDefinition): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext>[] {
  const operations = route.operations;
  if (!operations?.length) return [];
  return [
    {
      name: 'routeOperation',
      before: ({ event, context }) => {
        const state = context.app;
        const operation = matchOperation(operations, event.httpMethod ?? 'GET', parameterNames(event));
        state.operation = operation?.name;
        state.envelope = operation?.envelope ?? route.envelope;
      },
    },
  ];
}
