import type { RequestState } from '../../shared/http/request-state';
import { kidField } from '../../shared/validation/customer-page-fields';
import { parseFields } from '../../shared/validation/udid-capture-fields';

export function parseRequest({ params }: Pick<RequestState, 'params'>): { kid: string } {
  const p = parseFields(params, { kid: kidField() });
  return { kid: p.kid as string };
}
