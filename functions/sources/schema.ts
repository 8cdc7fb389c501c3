import * as z from 'zod/mini';
import { validationError } from '../../shared/domain/errors';
import type { RequestState } from '../../shared/http/request-state';
import { text } from '../../shared/validation/fields';
import { parseManagementParams, supplied } from '../../shared/validation/management-params';
import { cursorText, decodeCursor, PAGE_LIMITS, pageLimit } from '../../shared/validation/paging';
import { updateSourceShape } from '../../shared/validation/source-settings';

/** A new source: a name, and any setting update-source takes. */
export const createSourceShape = { ...updateSourceShape, name: z.optional(text(100, { min: 1 })) };

export const listSourcesShape = { limit: z.optional(pageLimit()), cursor: z.optional(cursorText()) };

/** Present in answers or set by the service, never by the caller. */
const readOnlySourceFields = ['source_id', 'source_url', 'app_count'] as const;

const SOURCE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function parseRequest({ event, params }: Pick<RequestState, 'event' | 'params'>) {
  if (event.httpMethod === 'GET') {
    const query = parseManagementParams(params, { shape: listSourcesShape });
    return { action: 'list' as const, limit: query.limit ?? PAGE_LIMITS.default, after: decodeCursor(query.cursor, SOURCE_ID) };
  }
  const fields = supplied(parseManagementParams(params, { shape: createSourceShape, readOnly: readOnlySourceFields }));
  if (fields.name === undefined) throw validationError('invalid_value', ['name']);
  return { action: 'create' as const, fields: { ...fields, name: fields.name } };
}
