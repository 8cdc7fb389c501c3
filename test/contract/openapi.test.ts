/** The generated OpenAPI document is valid OpenAPI 3.1 and covers every route of the route table. */
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildOpenApiDocument } from '../../infra/tooling/openapi-document';
import { languages } from '../../shared/i18n/languages';
import { routes } from '../../shared/routes';

type Operation = { security: unknown[]; parameters: { name: string; in: string; schema: { enum?: string[] } }[]; responses: Record<string, unknown>; 'x-rate-limit': unknown };
let document: { openapi: string; paths: Record<string, Record<string, Operation>> };

beforeAll(async () => {
  document = (await buildOpenApiDocument()) as typeof document;
});

test('it is valid OpenAPI 3.1 by a standard validator', async () => {
  const result = await new Validator().validate(document as unknown as Parameters<Validator["validate"]>[0]);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(document.openapi).toBe('3.1.0');
});

test.each(routes.flatMap((route) => route.methods.map((method) => [method, route.path, route] as const)))('%s %s is documented: auth, X-Lang, path ids, rate limit, errors', (method, path, route) => {
  const operation = document.paths[path]?.[method.toLowerCase()];
  expect(operation).toBeDefined();
  const op = operation!;
  expect(op.parameters.find((p) => p.name === 'X-Lang')?.schema.enum).toEqual([...languages]);
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) expect(op.parameters.some((p) => p.in === 'path' && p.name === name)).toBe(true);
  expect(op.security.length > 0).toBe(route.auth !== 'none');
  expect(op['x-rate-limit'] === null).toBe(route.rateLimit === null);
  // Hostile input is refused on every route: 400 and 413 are always documented.
  const statuses = Object.keys(op.responses);
  expect(statuses).toEqual(expect.arrayContaining(['400', '413', '500']));
});

test('the validator is not vacuous: a document without info is refused', async () => {
  const { info: _info, ...broken } = document as unknown as Record<string, unknown>;
  expect((await new Validator().validate(broken as unknown as Parameters<Validator["validate"]>[0])).valid).toBe(false);
});
