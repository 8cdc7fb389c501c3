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
export * from './apps';
export * from './background';
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
  ...Object.values(udidCapture),
  ...Object.values(customer),
] satisfies readonly RouteDefinition[];

/**
 * Where two functions serve one path, the one that creates or changes what the path names comes first (it
 * names the path's alarm and dashboard line); otherwise the areas' order. Within an area the exports come in
 * name order, so the table states this rule rather than relying on where a route is declared.
 */
const METHOD_RANK: Record<HttpMethod, number> = { POST: 0, PATCH: 0, PUT: 0, GET: 1, DELETE: 2 };
const everyRoute = orderedByPath(byArea);

function orderedByPath<T extends RouteDefinition>(list: readonly T[]): T[] {
  const rank = (route: T) => Math.min(...route.methods.map((method) => METHOD_RANK[method]));
  const onPath = new Map<string, T[]>();
  for (const route of list) onPath.set(route.path, [...(onPath.get(route.path) ?? []), route]);
  return [...onPath.values()].flatMap((group) => group.sort((a, b) => rank(a) - rank(b)));
}

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
