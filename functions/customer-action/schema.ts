import * as z from 'zod/mini';
import { DomainError } from '../../shared/domain/errors';
import type { RequestState } from '../../shared/http/request-state';
import { activationCodeField } from '../../shared/validation/activation-code-field';
import { kidField, modeField, sourceIdField, storeField } from '../../shared/validation/customer-page-fields';
import { parseFields } from '../../shared/validation/udid-capture-fields';

export type CustomerAction = ({ action: 'redeem'; code: string; mode: 'instant' | 'review' | undefined } | { action: 'reissue'; kid: string }) & { sourceId: string | undefined; store: string | undefined };

/** `redeem`: `code`, optional `mode`; `reissue`: `kid`; both: optional `source` or `store`, the page to come back to. */
export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>): CustomerAction {
  const source = z.optional(sourceIdField());
  const store = z.optional(storeField());
  if (pathParams.action === 'redeem') {
    const p = parseFields(params, { code: activationCodeField(), mode: z.optional(modeField()), source, store });
    return { action: 'redeem', code: p.code as string, mode: p.mode, sourceId: p.source, store: p.store };
  }
  if (pathParams.action === 'reissue') {
    const p = parseFields(params, { kid: kidField(), source, store });
    return { action: 'reissue', kid: p.kid as string, sourceId: p.source, store: p.store };
  }
  throw new DomainError('validation', 'invalid_value', { fields: ['action'] });
}
