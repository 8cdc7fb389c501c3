import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import { activationCodeField } from '../../shared/validation/activation-code-field';
import { modeField, sourceIdField } from '../../shared/validation/customer-page-fields';
import { parseFields } from '../../shared/validation/udid-capture-fields';

export function parseRequest({ params }: Pick<RequestState, 'params'>) {
  const p = parseFields(params, { code: activationCodeField(), mode: z.optional(modeField()), source: z.optional(sourceIdField()) });
  return { code: p.code as string, mode: p.mode, sourceId: p.source };
}
