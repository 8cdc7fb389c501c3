import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import type { ApiKeyInput } from '../../shared/domain/accounts/connect-account';
import { parseManagementParams } from '../../shared/validation/management-params';
import { apiKeyPem, issuerId, keyId } from '../../shared/validation/apple-account-fields';
import { validationError } from '../../shared/domain/errors';

export const ACCOUNT_ACTIONS = ['rotate_key', 'renew_certificate', 'pause', 'resume'] as const;

export const actionShape = {
  action: z.enum(ACCOUNT_ACTIONS),
  issuer_id: z.optional(issuerId()),
  key_id: z.optional(keyId()),
  private_key: z.optional(apiKeyPem()),
};

export type AccountRequest =
  | { action: 'show' | 'retire' | 'renew_certificate' | 'pause' | 'resume'; accountId: string }
  | { action: 'rotate_key'; accountId: string; key: ApiKeyInput };

export function parseRequest({ event, params, pathParams }: Pick<RequestState, 'event' | 'params' | 'pathParams'>): AccountRequest {
  const accountId = pathParams.account_id ?? '';
  if (event.httpMethod !== 'POST') {
    parseManagementParams(params, { shape: {} });
    return { action: event.httpMethod === 'DELETE' ? 'retire' : 'show', accountId };
  }
  const p = parseManagementParams(params, { shape: actionShape });
  if (p.action !== 'rotate_key') {
    const extra = (['issuer_id', 'key_id', 'private_key'] as const).filter((k) => p[k] !== undefined);
    if (extra.length) throw validationError('unknown_field', extra);
    return { action: p.action, accountId };
  }
  const missing = (['issuer_id', 'key_id', 'private_key'] as const).filter((k) => p[k] === undefined);
  if (missing.length) throw validationError('invalid_value', missing);
  return { action: 'rotate_key', accountId, key: { issuerId: p.issuer_id!, keyId: p.key_id!, privateKeyPem: p.private_key! } };
}
