import type { ApiEvent } from './request-state';

const HOST_PATTERN = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The route's resource path with its parameters filled in: `/api/rjy/{source_id}/appstore` → `/api/rjy/s1/appstore`. */
function filledResource(event: ApiEvent): string {
  const params = event.pathParameters ?? {};
  return event.resource.replace(/\{(\w+)\+?\}/g, (whole, name: string) => params[name] ?? whole);
}

/**
 * The absolute URL prefix under which the caller reached this API: the scheme API Gateway reports in
 * `X-Forwarded-Proto` (absent only from the local runtime, which speaks plain HTTP), the `Host`, and the
 * base path — the request path minus the route's resource path, i.e. the stage on an execute-api host, a
 * custom domain's base path, or nothing. Links built on it work on the host the caller used.
 */
export function requestBaseUrl(event: ApiEvent): string {
  const headers = event.headers ?? {};
  const proto = (headers['x-forwarded-proto'] ?? 'http').split(',')[0]!.trim().toLowerCase() === 'https' ? 'https' : 'http';
  const hostHeader = (headers.host ?? '').trim();
  const host = HOST_PATTERN.test(hostHeader) ? hostHeader.toLowerCase() : event.requestContext?.domainName ?? 'localhost';
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
