/**
 * What each deployed function may touch, derived from the route table and the scheduled-job list. The stack
 * grants exactly this and names exactly these tables in the function's environment.
 */
import type { TableKey } from '../../shared/db/tables';
import {
  authorizers,
  chainTableAccess,
  jobTableAccess,
  routes,
  scheduledJobs,
  streamConsumers,
  type AuthorizerDefinition,
  type RouteDefinition,
  type ScheduledJobDefinition,
  type StreamConsumerDefinition,
} from '../../shared/routes';

export interface FunctionAccess {
  /** Tables the function only reads (never also in `write`). */
  read: TableKey[];
  /** Tables the function reads and writes. */
  write: TableKey[];
  /** Whether the function decrypts or encrypts Apple account secrets with the stack's KMS key. */
  secrets: boolean;
}

export type DeployedFunction =
  | { kind: 'route'; name: string; route: RouteDefinition; access: FunctionAccess }
  | { kind: 'schedule'; name: string; job: ScheduledJobDefinition; access: FunctionAccess }
  | { kind: 'authorizer'; name: string; authorizer: AuthorizerDefinition; access: FunctionAccess }
  | { kind: 'stream'; name: string; consumer: StreamConsumerDefinition; access: FunctionAccess };

function combine(read: readonly TableKey[], write: readonly TableKey[], secrets: boolean | undefined): FunctionAccess {
  const writes = [...new Set(write)];
  return { read: [...new Set(read)].filter((key) => !writes.includes(key)), write: writes, secrets: secrets === true };
}

/**
 * A route's function runs the shared Middy chain: it reads the tenant of every request, reads tokens only
 * when the route authenticates one (and then a console session instead, whose idle end it moves forward), the
 * customer's session on session routes, and writes rate-limit counters only when the route has a limit (per owner or per IP).
 */
export function routeAccess(route: RouteDefinition): FunctionAccess {
  const authRead: readonly TableKey[] = route.auth === 'none' ? [] : route.auth === 'session' ? chainTableAccess.session : chainTableAccess.token;
  const chainRead: TableKey[] = [...chainTableAccess.tenant, ...authRead];
  const limited = route.rateLimit !== null || (route.ipLimits?.length ?? 0) > 0;
  const sessionWrite: readonly TableKey[] = route.auth === 'bearer' || route.auth === 'token' ? chainTableAccess.consoleSession : [];
  const chainWrite: TableKey[] = [...(limited ? chainTableAccess.write : []), ...sessionWrite];
  return combine([...chainRead, ...(route.data.read ?? [])], [...chainWrite, ...(route.data.write ?? [])], route.secrets);
}

/** A scheduled job runs outside the HTTP chain: what its entry declares, and its lease. */
export function jobAccess(job: ScheduledJobDefinition): FunctionAccess {
  return combine(job.data.read ?? [], [...jobTableAccess.write, ...(job.data.write ?? [])], job.secrets);
}

/** An authorizer runs outside the HTTP chain too: only what its entry declares, never secrets. */
export function authorizerAccess(authorizer: AuthorizerDefinition): FunctionAccess {
  return combine(authorizer.data.read ?? [], authorizer.data.write ?? [], false);
}

/** A stream consumer runs outside the HTTP chain: what its entry declares (its own table's stream is granted apart). */
export function streamConsumerAccess(consumer: StreamConsumerDefinition): FunctionAccess {
  return combine(consumer.data.read ?? [], consumer.data.write ?? [], false);
}

/** Every function the stack deploys: one per route-table entry, per scheduled job, per authorizer and per stream consumer. */
export function deployedFunctions(
  routeList: readonly RouteDefinition[] = routes,
  jobList: readonly ScheduledJobDefinition[] = scheduledJobs,
  authorizerList: readonly AuthorizerDefinition[] = authorizers,
  consumerList: readonly StreamConsumerDefinition[] = streamConsumers,
): DeployedFunction[] {
  const list: DeployedFunction[] = [
    ...routeList.map((route) => ({ kind: 'route' as const, name: route.function, route, access: routeAccess(route) })),
    ...jobList.map((job) => ({ kind: 'schedule' as const, name: job.function, job, access: jobAccess(job) })),
    ...authorizerList.map((authorizer) => ({ kind: 'authorizer' as const, name: authorizer.function, authorizer, access: authorizerAccess(authorizer) })),
    ...consumerList.map((consumer) => ({ kind: 'stream' as const, name: consumer.function, consumer, access: streamConsumerAccess(consumer) })),
  ];
  const seen = new Set<string>();
  for (const fn of list) {
    // One function per entry: two entries naming one folder would silently share a role and its grants.
    if (seen.has(fn.name)) throw new Error(`Function "${fn.name}" appears twice in the route table / scheduled jobs`);
    seen.add(fn.name);
  }
  return list;
}
