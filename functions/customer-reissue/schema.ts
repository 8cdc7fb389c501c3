import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import { kidField, sourceIdField } from '../../shared/validation/customer-page-fields';
import { parseFields } from '../../shared/validation/udid-capture-fields';

export function parseRequest({ params }: Pick<RequestState, 'params'>) {
  const p = parseFields(params, { kid: kidField(), source: z.optional(sourceIdField()) });
  return { kid: p.kid as string, sourceId: p.source };
}
