import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { RouteDefinition } from '../../shared/routes';
import { ownRecord } from '../../shared/own-record';

export interface IncomingRequest {
  method: string;
  /**
   * The request target (`/api/device/info?token=…`) parsed against the local origin, once: the server has
   * already routed by its path, and the event reads the same object.
   */
  url: URL;
  /** Raw header pairs as Node receives them (`rawHeaders`). */
  rawHeaders: string[];
  body: Buffer;
  sourceIp: string;
  /**
   * The address and port the local server received the request on (`127.0.0.1:3000`): the local stand-in
   * for the domain API Gateway reports it was reached on (`requestContext.domainName`), which no caller sets.
   */
  serverHost?: string;
}

/**
 * A path parameter as API Gateway hands it over: percent-decoded. A segment whose encoding is broken (`%ZZ`)
 * is kept as sent, so the function's own path-id check answers it (404 with the route's not-found code)
 * instead of the local server failing on it.
 */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `/api/rjy/{source_id}/appstore` → a matcher returning the path parameters. */
export function compilePath(template: string): (path: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const regex = new RegExp(`^${pattern}/?$`);
  return (path) => {
    const match = regex.exec(path);
    if (!match) return undefined;
    return ownRecord(names.map((name, i) => [name, decodePathSegment(match[i + 1]!)]));
  };
}

/**
 * A route's matcher: its path, and for a route that serves its subpaths (`subpaths`) every path below it too,
 * the rest as the `proxy` parameter, as API Gateway's `{proxy+}` resource hands it over.
 */
export function compileRoutePath(route: Pick<RouteDefinition, 'path' | 'subpaths'>): (path: string) => Record<string, string> | undefined {
  const own = compilePath(route.path);
  if (!route.subpaths) return own;
  const prefix = `${route.path}/`;
  return (path) => {
    if (!path.startsWith(prefix) || path.length === prefix.length) return own(path);
    return { proxy: path.slice(prefix.length).split('/').map(decodePathSegment).join('/') };
  };
}

function isTextual(contentType: string | undefined): boolean {
  return !contentType || /^(text\/|application\/(json|x-www-form-urlencoded|xml)|[^;]*\+json)/i.test(contentType);
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** API Gateway's `requestTime` format: `09/Apr/2015:12:34:56 +0000`. */
function apiGatewayTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${months[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** The API Gateway resource a request reached: the route's path, or the greedy resource below it. */
function resourceOf(route: RouteDefinition, pathParameters: Record<string, string>): string {
  return route.subpaths && pathParameters.proxy !== undefined ? `${route.path}/{proxy+}` : route.path;
}

/**
 * Builds the API Gateway REST (v1) proxy event API Gateway would send for this request, so handlers run
 * locally exactly as they do behind API Gateway.
 */
export function toApiGatewayEvent(request: IncomingRequest, route: RouteDefinition, pathParameters: Record<string, string>, stage = 'local'): APIGatewayProxyEvent {
  const { url } = request;
  // Header and query names are the caller's: records without a prototype, so `toString` or `__proto__` is a
  // name like any other (on a plain object `multi['toString'] ??= []` finds a function and the server fails).
  const headers = ownRecord<string>();
  const multiValueHeaders = ownRecord<string[]>();
  let contentType: string | undefined;
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i]!;
    const value = request.rawHeaders[i + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
    // The last of a repeated header wins, as in `headers` (API Gateway's single-value view).
    const lower = name.toLowerCase();
    if (lower === 'content-type') contentType = value;
  }
  const query = ownRecord<string>();
  const multiQuery = ownRecord<string[]>();
  for (const [key, value] of url.searchParams) {
    query[key] = value;
    (multiQuery[key] ??= []).push(value);
  }
  const textual = isTextual(contentType);
  const body = request.body.length === 0 ? null : textual ? request.body.toString('utf8') : request.body.toString('base64');
  const now = new Date();
  const hasQuery = Object.keys(query).length > 0;
  return {
    resource: resourceOf(route, pathParameters),
    path: url.pathname,
    httpMethod: request.method.toUpperCase(),
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : null,
    stageVariables: null,
    body,
    isBase64Encoded: body !== null && !textual,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: request.method.toUpperCase(),
      // The local server, like a custom domain without a base path, serves routes at the root: no stage prefix.
      path: url.pathname,
      stage,
      requestId: randomUUID(),
      requestTimeEpoch: now.getTime(),
      requestTime: apiGatewayTime(now),
      // API Gateway's own domain, never the caller's Host (which stays in `headers`).
      domainName: request.serverHost ?? 'localhost',
      domainPrefix: (request.serverHost ?? 'localhost').split('.')[0],
      resourceId: 'local',
      resourcePath: resourceOf(route, pathParameters),
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: request.sourceIp,
        user: null,
        userAgent: headers['User-Agent'] ?? headers['user-agent'] ?? null,
        userArn: null,
      },
    },
  };
}
