// Checks HTTP exchanges with App Store Connect (the client's requests, the simulator's answers) against Apple's
// OpenAPI document, checked in under test/support/apple/ (Apple's published document, unchanged).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ASC_SPEC_PATH = path.resolve(repoRoot, 'test/support/apple/openapi-provisioning-3.7.0.json');

interface SchemaHolder {
  content?: Record<string, { schema?: unknown }>;
}
interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string };
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: SchemaHolder;
  responses: Record<string, SchemaHolder>;
}
interface Spec {
  paths: Record<string, Record<string, Operation | Parameter[]>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

function loadSpec(): Spec {
  const spec = JSON.parse(readFileSync(ASC_SPEC_PATH, 'utf8')) as Spec;
  // Live teams report device statuses the document's enum lacks (PROCESSING since 2023, maybe more): allow any.
  const device = spec.components.schemas['Device'] as {
    properties: { attributes: { properties: { status: { enum?: string[] } } } };
  };
  delete device.properties.attributes.properties.status.enum;
  return spec;
}

const spec = loadSpec();
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(spec, 'asc');

function pointer(segments: string[]): string {
  return segments.map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}

function validatorAt(segments: string[]): ValidateFunction {
  const ref = `asc#/${pointer(segments)}`;
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`No schema at ${ref}`);
  return validate;
}

function problems(validate: ValidateFunction, value: unknown, what: string): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${what}${error.instancePath} ${error.message ?? ''}`);
}

function templateOf(pathname: string): string | undefined {
  return Object.keys(spec.paths).find((template) =>
    new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname),
  );
}

export interface AscExchange {
  method: string;
  url: string;
  requestBody?: unknown;
  status: number;
  responseBody: unknown;
}

/** Every way the exchange departs from Apple's document: path, method, query, request body, response body. */
export function specViolations(exchange: AscExchange): string[] {
  const url = new URL(exchange.url);
  const template = templateOf(url.pathname);
  if (!template) return [`${url.pathname} is not in the document`];
  const method = exchange.method.toLowerCase();
  const operation = spec.paths[template]?.[method];
  if (!operation || Array.isArray(operation)) return [`${exchange.method} ${template} is not in the document`];
  const found: string[] = [];
  const label = `${exchange.method} ${template}`;

  const queryParameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query');
  for (const [name, value] of url.searchParams) {
    const index = queryParameters.findIndex((parameter) => parameter.name === name);
    if (index < 0) {
      found.push(`${label}: query parameter ${name} is not documented`);
      continue;
    }
    const schemaPath = ['paths', template, method, 'parameters', String(index), 'schema'];
    // style form, explode false: arrays travel comma-separated; integers as digits.
    const type = queryParameters[index]?.schema?.type;
    const parsed = type === 'array' ? value.split(',') : type === 'integer' ? Number(value) : value;
    found.push(...problems(validatorAt(schemaPath), parsed, `${label} ?${name}`));
  }

  if (exchange.requestBody !== undefined) {
    if (!operation.requestBody) found.push(`${label}: takes no body`);
    else {
      const schemaPath = ['paths', template, method, 'requestBody', 'content', 'application/json', 'schema'];
      found.push(...problems(validatorAt(schemaPath), exchange.requestBody, `${label} request`));
    }
  }

  const status = String(exchange.status);
  // An answer the document gives without content (204 of a DELETE) must come without a body.
  const documented = operation.responses[status];
  if (documented && !documented.content) return exchange.responseBody === undefined ? found : [...found, `${label}: status ${status} has no content, but a body came`];
  // The document lists no 429 or 5xx answers; Apple sends its error body with them too.
  const responseSchema = operation.responses[status]?.content?.['application/json']
    ? ['paths', template, method, 'responses', status, 'content', 'application/json', 'schema']
    : exchange.status >= 400
      ? ['components', 'schemas', 'ErrorResponse']
      : undefined;
  if (!responseSchema) found.push(`${label}: status ${status} is not documented`);
  else found.push(...problems(validatorAt(responseSchema), exchange.responseBody, `${label} ${status} response`));
  return found;
}

/** A fetch that performs the call and remembers it, bodies parsed, for specViolations. */
export function recordingFetch(exchanges: AscExchange[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.clone().text();
    exchanges.push({
      method: init?.method ?? 'GET',
      url: typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url,
      ...(typeof init?.body === 'string' ? { requestBody: JSON.parse(init.body) as unknown } : {}),
      status: response.status,
      responseBody: text === '' ? undefined : (JSON.parse(text) as unknown),
    });
    return response;
  };
}
