import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import { parseFields, returnTarget } from '../../shared/validation/udid-capture-fields';

export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>): { sourceId: string; returnUrl: string | undefined } {
  const p = parseFields(params, { return: z.optional(returnTarget()) });
  return { sourceId: pathParams.source_id ?? '', returnUrl: p.return };
}
