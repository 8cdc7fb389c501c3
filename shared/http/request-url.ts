import type { ApiEvent } from './request-state';
import { normalizeHost, type Tenant } from '../records/tenant';

const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/;
const HOST_PATTERN = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The route's resource path with its parameters filled in: `/api/rjy/{source_id}/appstore` → `/api/rjy/s1/appstore`. */
function filledResource(event: ApiEvent): string {
  const params = event.pathParameters ?? {};
  return event.resource.replace(/\{(\w+)\+?\}/g, (whole, name: string) => params[name] ?? whole);
}

/**
 * The host links are built on. When the request came for the tenant's configured domain, that domain as
 * configured — never the caller's spelling of it: a port (`Host: shop.example:65535`) is the caller's word and
 * would be reflected into documents others read (a feed shared caches keep, a profile, a page). Otherwise the
 * domain API Gateway itself reports it was reached on (`requestContext.domainName`, set by API Gateway, never
 * by the caller; the local runtime sets the address it received the request on).
 */
function linkHost(event: ApiEvent, tenant: Pick<Tenant, 'domain'>): string {
  const hostHeader = (event.headers?.host ?? '').trim().toLowerCase();
  if (tenant.domain && HOST_PATTERN.test(hostHeader) && normalizeHost(hostHeader) === normalizeHost(tenant.domain)) return normalizeHost(tenant.domain);
  const domainName = (event.requestContext?.domainName ?? '').trim().toLowerCase();
  // A local runtime that reports a bare loopback name (sam local) lacks the port: a loopback Host supplies it.
  if (LOOPBACK_HOST.test(domainName) && LOOPBACK_HOST.test(hostHeader)) return hostHeader;
  return HOST_PATTERN.test(domainName) ? domainName : 'localhost';
}

/**
 * The absolute URL prefix under which the caller reached this API: the scheme API Gateway reports in
 * `X-Forwarded-Proto` (absent only from the local runtime, which speaks plain HTTP), the host (see
 * `linkHost`: the tenant's own domain or API Gateway's, never a caller's), and the base path — the request
 * path minus the route's resource path, i.e. the stage on an execute-api host, a custom domain's base path,
 * or nothing. Links built on it work on the host the caller used.
 */
export function requestBaseUrl(event: ApiEvent, tenant: Pick<Tenant, 'domain'>): string {
  const headers = event.headers ?? {};
  const proto = (headers['x-forwarded-proto'] ?? 'http').split(',')[0]!.trim().toLowerCase() === 'https' ? 'https' : 'http';
  const host = linkHost(event, tenant);
  const requestPath = event.requestContext?.path ?? event.path;
  const resource = filledResource(event);
  const basePath = requestPath.endsWith(resource) ? requestPath.slice(0, requestPath.length - resource.length).replace(/\/$/, '') : '';
  return `${proto}://${host}${basePath}`;
}

/**
 * Whether a `Host` header names a host a URL can carry: the allowed characters, and a name, IPv4 address
 * (`999.1.1.1`, `1.2.3.4.5` are not), IPv6 literal and port (at most 65535) that URL parsing accepts.
 */
export function isValidHost(host: string): boolean {
  const trimmed = host.trim();
  if (!HOST_PATTERN.test(trimmed)) return false;
  try {
    // URL parsing refuses a dotted all-numeric name that is no IPv4 address, and a port beyond 65535.
    new URL(`http://${trimmed}`);
    return true;
  } catch {
    return false;
  }
}

/** The host name alone, lower case, without port or brackets. */
export function hostName(baseUrl: string): string {
  return new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
}

/** Every value of a query parameter, in order (API Gateway's multi-value form, else the single one). */
export function queryValues(event: ApiEvent, name: string): string[] {
  const multi = event.multiValueQueryStringParameters?.[name];
  if (multi) return multi;
  const one = event.queryStringParameters?.[name];
  return one === undefined ? [] : [one];
}

/** A query parameter given exactly once; undefined when it is absent or repeated. */
export function singleQueryValue(event: ApiEvent, name: string): string | undefined {
  const values = queryValues(event, name);
  return values.length === 1 ? values[0] : undefined;
}

/** Whether the `Accept` header lists `mediaType` (parameters and q-values aside, q=0 meaning "not"). */
export function accepts(event: ApiEvent, mediaType: string): boolean {
  const accept = event.headers?.accept ?? event.headers?.Accept ?? '';
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    return type === mediaType && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}
