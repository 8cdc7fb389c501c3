import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import type { ApiKeyInput, ConnectInput } from '../../shared/domain/accounts/connect-account';
import { validationError } from '../../shared/domain/errors';
import { parseManagementParams } from '../../shared/validation/management-params';
import { accountId, accountMode, accountTiers, accountWeight, apiKeyPem, issuerId, keyId, membershipRenewsAt } from '../../shared/validation/apple-account-fields';

export const ACCOUNT_ACTIONS = ['rotate_key', 'renew_certificate', 'set_membership', 'pause', 'resume', 'retire'] as const;
type Action = (typeof ACCOUNT_ACTIONS)[number];

export const connectShape = {
  issuer_id: issuerId(),
  key_id: keyId(),
  private_key: apiKeyPem(),
  mode: accountMode(),
  weight: accountWeight(),
  tiers: accountTiers(),
  membership_renews_at: membershipRenewsAt(),
};

export const actionShape = {
  account_id: accountId(),
  action: z.enum(ACCOUNT_ACTIONS),
  issuer_id: z.optional(issuerId()),
  key_id: z.optional(keyId()),
  private_key: z.optional(apiKeyPem()),
  membership_renews_at: z.optional(membershipRenewsAt()),
};

export type AccountsRequest =
  | { action: 'list' }
  | { action: 'show'; accountId: string }
  | ({ action: 'connect' } & ConnectInput)
  | { action: Exclude<Action, 'rotate_key' | 'set_membership'>; accountId: string }
  | { action: 'rotate_key'; accountId: string; key: ApiKeyInput }
  | { action: 'set_membership'; accountId: string; membershipRenewsAt: number };

const KEY_FIELDS = ['issuer_id', 'key_id', 'private_key'] as const;

export function parseRequest({ event, params }: Pick<RequestState, 'event' | 'params'>): AccountsRequest {
  if (event.httpMethod === 'GET') {
    const p = parseManagementParams(params, { shape: { account_id: z.optional(accountId()) } });
    return p.account_id === undefined ? { action: 'list' } : { action: 'show', accountId: p.account_id };
  }
  if (!Object.hasOwn(params, 'account_id')) {
    const p = parseManagementParams(params, { shape: connectShape });
    return { action: 'connect', issuerId: p.issuer_id, keyId: p.key_id, privateKeyPem: p.private_key, mode: p.mode, weight: p.weight, tiers: p.tiers, membershipRenewsAt: p.membership_renews_at };
  }
  const p = parseManagementParams(params, { shape: actionShape });
  if (p.action !== 'set_membership' && p.membership_renews_at !== undefined) throw validationError('unknown_field', ['membership_renews_at']);
  if (p.action === 'set_membership') {
    if (p.membership_renews_at === undefined) throw validationError('invalid_value', ['membership_renews_at']);
    const extra = KEY_FIELDS.filter((k) => p[k] !== undefined);
    if (extra.length) throw validationError('unknown_field', extra);
    return { action: 'set_membership', accountId: p.account_id, membershipRenewsAt: p.membership_renews_at };
  }
  if (p.action !== 'rotate_key') {
    const extra = KEY_FIELDS.filter((k) => p[k] !== undefined);
    if (extra.length) throw validationError('unknown_field', extra);
    return { action: p.action, accountId: p.account_id };
  }
  const missing = KEY_FIELDS.filter((k) => p[k] === undefined);
  if (missing.length) throw validationError('invalid_value', missing);
  return { action: 'rotate_key', accountId: p.account_id, key: { issuerId: p.issuer_id!, keyId: p.key_id!, privateKeyPem: p.private_key! } };
}
