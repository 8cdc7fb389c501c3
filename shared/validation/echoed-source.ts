import * as z from 'zod/mini';
import { validationError } from '../domain/errors';
import { text } from './fields';
import { parseManagementParams } from './management-params';

/**
 * Any parameter may arrive in the query or the body, so the path's `source_id` may be repeated there; it
 * must then name the same source. Anything else is refused rather than ignored.
 */
export const echoedSourceShape = { source_id: z.optional(text(200)) };

/** A request that names its source in the path and carries nothing else (the source may be echoed). */
export function parseSourceRequest({ params, pathParams }: { params: Record<string, unknown>; pathParams: Record<string, string> }): { sourceId: string } {
  const echoed = parseManagementParams(params, { shape: echoedSourceShape });
  const sourceId = pathParams.source_id ?? '';
  if (echoed.source_id !== undefined && echoed.source_id !== sourceId) throw validationError('invalid_value', ['source_id']);
  return { sourceId };
}
