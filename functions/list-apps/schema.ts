import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import { echoedSourceShape } from '../../shared/validation/echoed-source';
import { validationError } from '../../shared/domain/errors';
import { parseManagementParams } from '../../shared/validation/management-params';
import { cursorText, decodeCursor, PAGE_LIMITS, pageLimit } from '../../shared/validation/paging';

export const listAppsShape = {
  status: z.optional(z.enum(['draft', 'published'])),
  limit: z.optional(pageLimit()),
  cursor: z.optional(cursorText()),
};

const APP_ID = /^[1-9]\d{0,14}$/;

export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>) {
  const query = parseManagementParams(params, { shape: { ...echoedSourceShape, ...listAppsShape } });
  const sourceId = pathParams.source_id ?? '';
  if (query.source_id !== undefined && query.source_id !== sourceId) throw validationError('invalid_value', ['source_id']);
  const after = decodeCursor(query.cursor, APP_ID);
  return { sourceId, status: query.status, limit: query.limit ?? PAGE_LIMITS.default, after: after === undefined ? undefined : Number(after) };
}
