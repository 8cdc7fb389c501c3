/**
 * The OpenAPI 3.1 document of the service, generated from the route table and from each function's
 * contract (`functions/<name>/contract.ts`: its request parameters and its success `data`, as zod schemas).
 * Nothing here is written per route by hand: paths, methods, authentication, rate limits, envelopes and
 * error answers all follow from the route's table entry, so a new route is documented by adding it there.
 *
 * The HTTP tests validate every response they receive against this document (test/support/openapi.ts), so
 * it cannot drift from what the service answers.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toJSONSchema } from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { catalog, translate } from '../../shared/i18n/catalog';
import { languages } from '../../shared/i18n/languages';
import { allErrorKinds, codeFor } from '../../shared/http/error-codes';
import { gatewayAnswer, gatewayAnswers } from '../../shared/http/gateway-answers';
import { routes, type EnvelopeKind, type IpLimit, type RouteDefinition } from '../../shared/routes';
import type { ErrorKind } from '../../shared/domain/errors';
import type { FunctionContract } from '../../shared/contracts/function-contract';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

async function contractOf(fn: string): Promise<FunctionContract> {
  const file = join(root, 'functions', fn, 'contract.ts');
  if (!existsSync(file)) return {};
  const module = (await import(file)) as { contract?: FunctionContract };
  return module.contract ?? {};
}

/** The section of the docs page a route is listed under. */
function tagOf(route: RouteDefinition): string {
  if (route.path === '/console') return 'Console';
  if (route.path.startsWith('/api/user/webhook') || route.path.startsWith('/api/user/events')) return 'Events and webhooks';
  if (route.path.startsWith('/api/user/')) return 'Balance and ledger';
  if (route.path.startsWith('/api/udid/') || route.envelope === 'page') return 'UDID capture';
  if (route.envelope === 'management') return 'Sources (management)';
  if (route.envelope === 'feed') return 'Feed (public)';
  if (route.envelope === 'add') return 'Adding devices';
  return 'Devices';
}

function jsonSchema(schema: $ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  return rest;
}

/** The kinds `errorKinds` knows which routes answer; any kind added later is documented on every route. */
const CLASSIFIED: ReadonlySet<ErrorKind> = new Set<ErrorKind>([
  'validation', 'malformed_input', 'too_large', 'https_required', 'unavailable', 'token_missing', 'token_invalid', 'token_expired',
  'rate_limited', 'source_not_found', 'app_not_found', 'conflict', 'device_selector_missing', 'device_ambiguous', 'device_not_found', 'invalid_action', 'add_failed',
  'download_refused', 'unlock_refused',
]);

/** The envelopes a route answers in: its own, and those of its operations. */
function envelopesOf(route: RouteDefinition): EnvelopeKind[] {
  return [...new Set([route.envelope, ...(route.operations ?? []).map((op) => op.envelope ?? route.envelope)])];
}

/** A `source_id` request parameter (the add's and device info's) names a source as a path would; so does `account_id` an Apple account. */
function takesParam(contract: FunctionContract, name: 'source_id' | 'account_id'): boolean {
  const properties = (contract.request ? jsonSchema(contract.request) : {}).properties;
  return typeof properties === 'object' && properties !== null && Object.hasOwn(properties, name);
}

/** Every error kind a route can answer, from what its table entry (and its contract's parameters) say it does. */
function errorKinds(route: RouteDefinition, contract: FunctionContract): ErrorKind[] {
  const kinds: ErrorKind[] = ['validation', 'malformed_input', 'too_large', 'https_required', 'unavailable'];
  if (route.auth === 'bearer' || route.auth === 'token') kinds.push('token_missing', 'token_invalid', 'token_expired');
  // A session route's one refusal without a valid session cookie (401 session_required).
  if (route.auth === 'session') kinds.push('token_invalid');
  if (route.rateLimit !== null || route.envelope === 'feed' || (route.ipLimits?.length ?? 0) > 0) kinds.push('rate_limited');
  if (route.path.includes('{source_id}') || takesParam(contract, 'source_id')) kinds.push('source_not_found');
  if (route.path.includes('{app_id}')) kinds.push('app_not_found');
  // An Apple account id that is not the caller's own is answered as a missing one (apple_account_not_found).
  if (takesParam(contract, 'account_id')) kinds.push('device_not_found');
  if (route.envelope === 'management') kinds.push('conflict');
  if (route.envelope === 'device') kinds.push('device_selector_missing', 'device_ambiguous', 'device_not_found', 'invalid_action');
  if (route.envelope === 'add') kinds.push('add_failed');
  // The public route under an app is the download gate: it refuses links with HTTP 403.
  if (route.envelope === 'feed' && route.path.includes('{app_id}')) kinds.push('download_refused');
  if (envelopesOf(route).includes('unlock')) kinds.push('unlock_refused');
  kinds.push(...(contract.errors ?? []).filter((kind) => !kinds.includes(kind)));
  return [...kinds, ...allErrorKinds.filter((kind) => !CLASSIFIED.has(kind))];
}

const reasons = Object.keys(catalog).filter((key) => key !== 'ok');

function envelopeSchema(kind: EnvelopeKind, data: Record<string, unknown>, ok: boolean): Record<string, unknown> {
  const device = kind === 'device' || kind === 'add';
  return {
    type: 'object',
    required: ['code', 'msg', 'time', 'data', ...(device ? ['ip', 'ysucc'] : [])],
    properties: {
      code: { type: 'integer', description: ok ? '1 = success' : 'The error code (see the error table)' },
      msg: { type: 'string', description: 'Localized message (X-Lang, Accept-Language, tenant default, zh)' },
      time: { type: 'integer', description: 'Unix seconds' },
      data,
      ...(device ? { ip: { type: 'string', description: "The caller's IP as API Gateway saw it" }, ysucc: { type: 'string', enum: [ok ? 'Ysucc' : 'Yerror'] } } : {}),
    },
  };
}

/**
 * An error's `data`, written once under `components.schemas` and referenced by every error answer: its reason
 * list names every message key, and inlined into each status of each operation it made the document 3 MB.
 */
const ERROR_DATA_REF = { $ref: '#/components/schemas/ErrorData' };
const errorDataSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string', enum: reasons, description: 'Stable machine-readable reason' },
    fields: { type: 'array', items: { type: 'string' }, description: 'Offending parameter names (validation); `(unnamed)` for names that are not parameter-like' },
  },
};

/** One response object per HTTP status the route can answer with an error envelope. */
function errorResponses(route: RouteDefinition, contract: FunctionContract): Record<string, unknown> {
  const byStatus = new Map<number, { code: number; kind: ErrorKind }[]>();
  for (const kind of errorKinds(route, contract)) {
    for (const envelope of envelopesOf(route)) {
      const { code, status } = codeFor(envelope, kind);
      const list = byStatus.get(status) ?? [];
      if (!list.some((e) => e.code === code && e.kind === kind)) list.push({ code, kind });
      byStatus.set(status, list);
    }
  }
  byStatus.set(500, [...(byStatus.get(500) ?? []), { code: 500, kind: 'unavailable' }]);
  const responses: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const codes = [...new Set(list.map((e) => e.code))];
    const description = list.map((e) => `code ${e.code}: ${e.kind}`).join('; ');
    const schema = envelopeSchema(route.envelope, ERROR_DATA_REF, false);
    (schema.properties as Record<string, Record<string, unknown>>).code = { type: 'integer', enum: status === 500 ? [...codes, 500] : codes };
    responses[String(status)] = {
      description: status === 200 ? `Business errors answered with HTTP 200 (legacy clients read code): ${description}` : description,
      ...(status === 429 ? { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until the limit resets' } } } : {}),
      content: { 'application/json': { schema } },
    };
  }
  return responses;
}

function rateLimitHeaders(route: RouteDefinition): Record<string, unknown> {
  if (route.rateLimit === null && !route.ipLimits?.length) return {};
  return {
    'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'Requests allowed per minute' },
    'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'Requests left in this minute' },
    'X-RateLimit-Reset': { schema: { type: 'integer' }, description: 'Unix seconds when the next minute starts' },
  };
}

/** Public routes' per-IP limits, in words. */
function ipLimitNote(route: RouteDefinition): string {
  const limits = route.ipLimits ?? [];
  if (!limits.length) return '';
  const scope = (l: IpLimit) => (l.operation ? ` (${l.operation}${l.counts === 'failures' ? ': failed requests only' : ''})` : '');
  return ` Limited per caller IP: ${limits.map((l) => `${l.limit} per ${l.window}${l.perPathParam ? ` per ${l.perPathParam}` : ''}${scope(l)}`).join(', ')}.`;
}

function parameters(route: RouteDefinition, method: string, request: Record<string, unknown> | undefined, contract: FunctionContract): unknown[] {
  const params: unknown[] = [...route.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' },
  }));
  params.push(
    { name: 'X-Lang', in: 'header', required: false, schema: { type: 'string', enum: [...languages] }, description: 'Response language; beats Accept-Language' },
    { name: 'Accept-Language', in: 'header', required: false, schema: { type: 'string' }, description: 'Honoured with q-values when X-Lang is absent' },
  );
  // A console session's write names its CSRF token (so does a function that checks a session itself).
  const sessionWrite = (route.auth === 'bearer' || route.auth === 'token' || contract.sessionWrites === true) && (method !== 'GET' || route.writesOnGet === true);
  if (sessionWrite) {
    params.push({ name: 'X-CSRF-Token', in: 'header', required: false, schema: { type: 'string' }, description: 'With a console session instead of a token: the csrf_token of the session (without it: 403 csrf_invalid)' });
  }
  const properties = (request?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((request?.required ?? []) as string[]);
  for (const [name, schema] of Object.entries(properties)) {
    params.push({
      name,
      in: 'query',
      required: method === 'GET' && required.has(name),
      schema,
      ...(method === 'GET' ? {} : { description: 'May also be sent in the body (JSON or form); the body wins' }),
    });
  }
  return params;
}

function success(route: RouteDefinition, contract: FunctionContract): Record<string, unknown> {
  if (contract.raw) {
    return {
      [String(contract.raw.status)]: {
        description: contract.raw.description,
        ...(contract.raw.contentType ? { content: { [contract.raw.contentType]: { schema: {} } } } : {}),
      },
    };
  }
  const data = contract.response ? jsonSchema(contract.response) : { type: 'object' };
  const headers = rateLimitHeaders(route);
  if (route.envelope === 'feed') {
    // Operations that answer an envelope (the feed address's unlocks and reports) succeed with code 1 instead.
    const envelopes = Object.entries(contract.operationResponses ?? {}).map(([name, schema]) => {
      const op = route.operations?.find((o) => o.name === name);
      return envelopeSchema(op?.envelope ?? 'management', jsonSchema(schema), true);
    });
    const schema = envelopes.length ? { anyOf: [data, ...envelopes] } : data;
    const description = envelopes.length ? `The document; ${Object.keys(contract.operationResponses ?? {}).join(' and ')} answer the envelope with code 1` : 'The document';
    return { '200': { description, headers, content: { 'application/json': { schema } } } };
  }
  return {
    '200': {
      description: `Success: code 1, msg "${translate('en', 'ok')}"`,
      ...(Object.keys(headers).length ? { headers } : {}),
      content: {
        'application/json': { schema: envelopeSchema(route.envelope, data, true) },
        ...(contract.alternateContent ? { [contract.alternateContent.contentType]: { schema: { type: 'string', description: contract.alternateContent.description } } } : {}),
      },
    },
  };
}

function operation(route: RouteDefinition, method: string, contract: FunctionContract) {
  const request = contract.request ? jsonSchema(contract.request) : undefined;
  const hasBody = method !== 'GET';
  const security = route.auth === 'bearer' ? [{ bearerAuth: [] }, { consoleSession: [] }] : route.auth === 'token' ? [{ tokenParam: [] }, { tokenBody: [] }, { consoleSession: [] }] : route.auth === 'session' ? [{ customerSession: [] }] : [];
  const successResponses = success(route, contract);
  const errors = errorResponses(route, contract);
  // A business error answered with HTTP 200 (device routes) shares the status with success.
  const merged: Record<string, unknown> = { ...errors, ...successResponses };
  if (errors['200'] && successResponses['200']) {
    const ok = successResponses['200'] as { description: string; headers?: unknown; content: Record<string, { schema: unknown }> };
    const failure = errors['200'] as { description: string; content: Record<string, { schema: unknown }> };
    merged['200'] = {
      description: `${ok.description}. ${failure.description}`,
      ...(ok.headers ? { headers: ok.headers } : {}),
      content: { 'application/json': { schema: { oneOf: [ok.content['application/json']!.schema, failure.content['application/json']!.schema] } } },
    };
  }
  // Another success (202: accepted, the work goes on in the background) answers the same envelope as 200.
  const ok = successResponses['200'] as { content?: unknown } | undefined;
  for (const [status, description] of Object.entries(contract.extraStatuses ?? {})) merged[status] = status.startsWith('2') && ok?.content ? { description, content: ok.content } : { description };
  return {
    operationId: `${route.function}-${method.toLowerCase()}`,
    summary: route.description,
    tags: [tagOf(route)],
    description: [
      contract.notes,
      route.rateLimit === null ? `Public.${ipLimitNote(route)}` : `Rate limit: ${route.rateLimit} per minute per token owner${route.rateLimitGroup ? ` (shared by every route of group \`${route.rateLimitGroup}\`)` : ''}.`,
    ]
      .filter(Boolean)
      .join('\n\n'),
    'x-rate-limit': route.rateLimit === null ? null : { perMinute: route.rateLimit, group: route.rateLimitGroup ?? route.function },
    security,
    parameters: parameters(route, method, request, contract),
    ...(hasBody && request
      ? {
          requestBody: {
            required: false,
            content: { 'application/json': { schema: request }, 'application/x-www-form-urlencoded': { schema: request } },
          },
        }
      : {}),
    responses: merged,
  };
}

/** A server entry; `{name}` parts of a templated URL become server variables, as OpenAPI requires. */
function server(url: string) {
  const names = [...url.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);
  return {
    url,
    description: 'Local runtime (npm start); deployed: the stack output ApiUrl',
    ...(names.length ? { variables: Object.fromEntries(names.map((name) => [name, { default: name === 'region' ? 'us-east-1' : 'abc123' }])) } : {}),
  };
}

export async function buildOpenApiDocument(options: { serverUrl?: string } = {}): Promise<Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes as readonly RouteDefinition[]) {
    const contract = await contractOf(route.function);
    for (const method of route.methods) {
      (paths[route.path] ??= {})[method.toLowerCase()] = operation(route, method, contract);
    }
  }
  const gatewayErrors = Object.fromEntries(
    gatewayAnswers.map((a) => [a.type, { summary: `${a.status} ${a.error}`, value: { code: a.status, msg: a.msg, time: 1795000000123, data: { error: a.error } } }]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'App source & device service',
      version: '1.0.0',
      description: [
        'Resellers manage app sources (the feeds sideloading clients read) and devices (UDIDs registered on Apple developer accounts).',
        'Every answer is a JSON envelope `{code, msg, time, data}` (`code` 1 = success, `time` Unix seconds); device routes add `ip` and `ysucc`.',
        'Parameters may arrive in the query string or the body (JSON or form-encoded; the body wins).',
        `Answers API Gateway gives by itself (throttling, unknown routes, timeouts) are envelopes too, with \`code\` = the HTTP status, an English \`msg\` and \`time\` in milliseconds; an unknown path answers ${gatewayAnswer('MISSING_AUTHENTICATION_TOKEN').status}.`,
      ].join('\n\n'),
    },
    servers: [server(options.serverUrl ?? 'http://127.0.0.1:3000')],
    components: {
      schemas: { ErrorData: errorDataSchema },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Management routes: Authorization: Bearer <API token>' },
        tokenParam: { type: 'apiKey', in: 'query', name: 'token', description: 'Device and add routes: the API token as the `token` parameter' },
        tokenBody: { type: 'apiKey', in: 'query', name: 'token', description: 'The same `token` may be sent in the JSON or form body instead' },
        consoleSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'console_session',
          description: 'A person signed in to the console (POST /api/user/session, action sign_in) instead of a token, on every bearer and token route; every write (any method but GET/HEAD; every request to the add routes and device status) must then carry the session\'s csrf_token in the X-CSRF-Token header (else 403, csrf_invalid)',
        },
        customerSession: { type: 'apiKey', in: 'cookie', name: 'customer_session', description: "Customer routes: the session cookie the customer's page sets when a capture's one-time `st` is opened" },
      },
      examples: gatewayErrors,
    },
    paths,
  };
}
