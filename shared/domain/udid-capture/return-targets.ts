/**
 * Where a capture may send the device back. A return target is where the UDID (and, for a storefront, the
 * capture ticket) lands, so it may be only one of the tenant's own hosts (any page there: they are this
 * service's) or a target the tenant's operator registered (`tenant set --return-targets`): same scheme, host
 * and port, and the registered path or a path below it (`https://shop.example/udid` allows
 * `https://shop.example/udid?order=7` and `https://shop.example/udid/done`, not `https://shop.example/udidx`).
 */
import type { Tenant } from '../../records/tenant';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
/** At most this many registered targets per tenant. */
export const RETURN_TARGETS_MAX = 20;

function parsed(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * Whether a URL can be a return target at all: absolute https without credentials or a fragment (a fragment
 * would swallow the added parameters); plain http only to this machine, for local storefronts under `npm start`.
 */
export function isReturnUrl(value: string): boolean {
  if ([...value].length > 2048) return false;
  const url = parsed(value);
  if (!url || url.username || url.password || url.hash) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

/** Why a URL cannot be registered as a return target (a return URL, with no query); undefined when it can. */
export function returnTargetProblem(value: string): string | undefined {
  if (!isReturnUrl(value)) return 'must be an absolute https URL (http only to localhost) without credentials or a fragment';
  if (parsed(value)!.search) return 'must not carry a query (the capture adds its own parameters)';
  return undefined;
}

/** A registered target as stored: URL parsing's spelling (lower-case host, default port dropped). */
export function normalizedReturnTarget(value: string): string {
  return parsed(value)!.href;
}

function underPath(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

/**
 * Whether `returnUrl` is the tenant's to send a device to: on one of its own hosts (`baseUrl`, the host the
 * request reached, and its configured domain over https), or under one of its registered targets.
 */
export function isAllowedReturn(returnUrl: string, tenant: Pick<Tenant, 'domain' | 'settings'>, baseUrl: string): boolean {
  const url = parsed(returnUrl);
  if (!url) return false;
  // The host the request reached is ours whatever its scheme (plain http under `npm start` and in tests).
  const own = [new URL(baseUrl).origin, ...(tenant.domain ? [`https://${tenant.domain}`] : [])];
  if (own.includes(url.origin)) return true;
  if (!isReturnUrl(returnUrl)) return false;
  return (tenant.settings.returnTargets ?? []).some((target) => {
    const registered = parsed(target);
    return registered !== undefined && registered.origin === url.origin && underPath(url.pathname, registered.pathname);
  });
}
