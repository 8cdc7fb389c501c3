import type { MiddlewareObj } from '@middy/core';
import { DomainError } from '../../domain/errors';
import { checkStructure } from './input-limits';
import { ownRecord } from '../../own-record';
import type { ApiEvent, ApiResult, AppContext, Params } from '../request-state';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A repeated form or query key keeps its last value, as most form handlers do. */
function lastValues(record: Record<string, unknown>): Params {
  return ownRecord(Object.entries(record).map(([k, v]) => [k, Array.isArray(v) ? v[v.length - 1] : v]));
}

/**
 * Runs after Middy's JSON and urlencoded body parsers: merges the query string and the parsed body (body
 * wins) into `params`. A body that no parser understood, or JSON that is not an object, is refused.
 */
export function parameters(): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext> {
  return {
    name: 'parameters',
    before: ({ event, context }) => {
      const body: unknown = event.body;
      let bodyParams: Params = ownRecord();
      if (typeof body === 'string') {
        // A raw-body route reads its document from the event itself.
        if (body.trim() !== '' && !context.app.route.rawBody) throw new DomainError('validation', 'unsupported_media_type', { fields: ['body'] });
      } else if (body !== null && body !== undefined) {
        if (!isPlainObject(body)) throw new DomainError('validation', 'malformed_body', { fields: ['body'] });
        // Only a form repeats keys; a JSON array is a value of its own and is validated as one.
        const isForm = /^application\/x-www-form-urlencoded/i.test(event.headers?.['content-type'] ?? '');
        bodyParams = isForm ? lastValues(body) : body;
      }
      const query = lastValues({ ...(event.multiValueQueryStringParameters ?? {}), ...(event.queryStringParameters ?? {}) });
      checkStructure(query);
      checkStructure(bodyParams);
      // No prototype: a schema or service looking up a parameter by name finds only what the caller sent.
      context.app.params = ownRecord([...Object.entries(query), ...Object.entries(bodyParams)]);
    },
  };
}

/** Middy's parsers throw HTTP errors; these are the request's fault and become validation errors. */
export function bodyParserError(err: unknown): DomainError | undefined {
  const status = (err as { statusCode?: number })?.statusCode;
  if (status === 415) return new DomainError('validation', 'unsupported_media_type', { fields: ['body'] });
  // Middy's JSON parser refuses `__proto__` and `constructor.prototype` keys itself, with this message.
  if (status === 422 && (err as Error).message === 'Forbidden key in JSON body') return new DomainError('malformed_input', 'invalid_key', { fields: ['(unnamed)'] });
  if (status === 422 || status === 400) return new DomainError('validation', 'malformed_body', { fields: ['body'] });
  return undefined;
}
