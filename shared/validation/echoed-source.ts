import * as z from 'zod/mini';
import { validationError } from '../domain/errors';
import { text } from './fields';

/**
 * Any parameter may arrive in the query or the body, so the path's `source_id` may be repeated there; it
 * must then name the same source. Anything else is refused rather than ignored.
 */
export const echoedSourceShape = { source_id: z.optional(text(200)) };

export function requireSameSource(echoed: { source_id?: string | undefined }, sourceId: string): string {
  if (echoed.source_id !== undefined && echoed.source_id !== sourceId) throw validationError('invalid_value', ['source_id']);
  return sourceId;
}
