import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import { kidField } from '../../shared/validation/customer-page-fields';
import { parseFields } from '../../shared/validation/udid-capture-fields';

export function parseRequest({ params }: Pick<RequestState, 'params'>): { kid: string } {
  return parseFields(params, { kid: kidField() as z.ZodMiniType<string> });
}
