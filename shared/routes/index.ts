/**
 * The one route table, by area: each route is written once, as the constant of its area's module, and the
 * lists below are made from those modules. The CDK stack builds one Lambda function and one API Gateway
 * method per route; the local runtime serves the same routes by invoking the same handler modules.
 *
 * `function` names the folder `functions/<function>/handler.ts`. The entries look alike on purpose: the table
 * is data, one declaration per route, and what varies between routes is exactly what each entry spells out.
 * A handler imports its own constant from its area's module, so its bundle carries its own entry and not the
 * whole table; the stack, the local runtime and the contract read `routes` here.
 */
import * as account from './account';
import * as addDevice from './add-device';
import * as agents from './agents';
import * as consoleArea from './console';
import * as apps from './apps';
import * as customer from './customer';
import * as devices from './devices';
import * as feed from './feed';
import * as protection from './protection';
import * as sources from './sources';
import * as udidCapture from './udid-capture';
import type { HttpMethod, RouteDefinition } from './definitions';

export * from './account';
export * from './add-device';
export * from './agents';
export * from './apps';
export * from './background';
export * from './console';
export * from './customer';
export * from './definitions';
export * from './devices';
export * from './feed';
export * from './protection';
export * from './sources';
export * from './udid-capture';

const byArea = [
  ...Object.values(apps),
  ...Object.values(sources),
  ...Object.values(protection),
  ...Object.values(feed),
  ...Object.values(devices),
  ...Object.values(addDevice),
  ...Object.values(account),
  ...Object.values(agents),
  ...Object.values(udidCapture),
  ...Object.values(customer),
  ...Object.values(consoleArea),
] satisfies readonly RouteDefinition[];

/**
 * The table's order, stated rather than left to where a route is declared (an area's exports come in name
 * order): by path, segment by segment, a literal segment before a parameter — the order API Gateway matches
 * in, so a reader of the list (the local runtime, the OpenAPI document) that takes the first matching path
 * finds `/api/customer/download` before `/api/customer/{action}`; and on one path, the function that creates
 * or changes what the path names first (it names the path's alarm and dashboard line).
 */
const METHOD_RANK: Record<HttpMethod, number> = { POST: 0, PATCH: 0, PUT: 0, GET: 1, DELETE: 2 };

function tableOrder(a: RouteDefinition, b: RouteDefinition): number {
  const as = a.path.split('/');
  const bs = b.path.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const [x, y] = [as[i] ?? '', bs[i] ?? ''];
    if (x === y) continue;
    const [xParam, yParam] = [x.startsWith('{'), y.startsWith('{')];
    if (xParam !== yParam) return xParam ? 1 : -1;
    return x < y ? -1 : 1;
  }
  if (as.length !== bs.length) return as.length - bs.length;
  const rank = (route: RouteDefinition) => Math.min(...route.methods.map((method) => METHOD_RANK[method]));
  return rank(a) - rank(b);
}

const everyRoute = [...byArea].sort(tableOrder);

export type Route = (typeof everyRoute)[number];

/** A list that holds one entry at least, typed so (every area holds a route). */
function nonEmpty<T>(list: readonly T[]): readonly [T, ...T[]] {
  if (list.length === 0) throw new Error('The route table is empty');
  return list as readonly [T, ...T[]];
}

export const routes = nonEmpty<Route>(everyRoute);
export type FunctionName = Route['function'];

export function routeFor(fn: FunctionName): RouteDefinition {
  const route = routes.find((r) => r.function === fn);
  if (!route) throw new Error(`No route for function ${fn}`);
  return route;
}
