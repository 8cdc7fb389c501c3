/**
 * Every answer the HTTP tests receive is checked against the generated OpenAPI document: its status must be
 * documented for that route and method, and its JSON body must match the documented schema. So the document
 * cannot drift from what the service answers.
 */
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { compilePath } from '../../infra/local/api-gateway-event';
import { gatewayAnswer } from '../../shared/http/gateway-answers';
import { keptForWorker } from './worker-memo';

type Operation = { responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };

let documentPromise: Promise<Document> | undefined;
// Compiling a response's schema cost more than many tests (21 s of a run, every file compiling its own): the
// validators live for the jest worker, keyed by the run's document, which every file of the run reads.
const { ajv, validators } = keptForWorker(`openapi-validators ${process.env.TEST_OPENAPI_DOCUMENT ?? 'built'}`, () => ({
  ajv: new Ajv2020({ strict: false, allErrors: true }),
  validators: new Map<string, ReturnType<Ajv2020['compile']>>(),
}));

function validatorFor(key: string, schema: unknown) {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(schema as object);
    validators.set(key, validate);
  }
  return validate;
}

export async function checkAgainstOpenApi(method: string, url: string, status: number, contentType: string | null, body: unknown): Promise<void> {
  // The run's document, written once by global setup; built here when a file runs without it.
  const written = process.env.TEST_OPENAPI_DOCUMENT;
  const document = (documentPromise ??= written ? readFile(written, 'utf8').then((text) => JSON.parse(text) as Document) : import('../../infra/tooling/openapi-document').then(({ buildOpenApiDocument }) => buildOpenApiDocument() as Promise<Document>));
  const { paths, components } = await document;
  const pathname = new URL(url, 'http://localhost').pathname;
  const template = Object.keys(paths).find((path) => compilePath(path)(pathname));
  const operation = template ? paths[template]![method.toLowerCase()] : undefined;
  if (!template || !operation) {
    // No route: the gateway's own 404 envelope.
    const answer = gatewayAnswer('MISSING_AUTHENTICATION_TOKEN');
    if (status !== answer.status || (body as { data?: { error?: string } }).data?.error !== answer.error) {
      throw new Error(`${method} ${pathname}: no documented route, yet the answer was ${status}`);
    }
    return;
  }
  const response = operation.responses[String(status)];
  if (!response) {
    throw new Error(
      `${method} ${template}: HTTP ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')}). ` +
        'The OpenAPI document (infra/tooling/openapi-document.ts) derives error answers from the route table entry and ' +
        'success answers from functions/<name>/contract.ts (`response`, `raw`, `extraStatuses`): declare it there.',
    );
  }
  const schema = contentType?.includes('json') ? response.content?.['application/json']?.schema : undefined;
  if (!schema) return;
  // The document's `#/components/…` references resolve inside the compiled schema.
  const validate = validatorFor(`${method} ${template} ${status}`, { ...(schema as object), components });
  if (!validate(body)) {
    throw new Error(
      `${method} ${template} HTTP ${status}: the answer does not match the OpenAPI document (functions/<name>/contract.ts or infra/tooling/openapi-document.ts): ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    );
  }
}
