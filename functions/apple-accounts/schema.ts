import type { RequestState } from '../../shared/http/request-state';
import type { ConnectInput } from '../../shared/domain/accounts/connect-account';
import { parseManagementParams } from '../../shared/validation/management-params';
import { accountMode, accountTiers, accountWeight, apiKeyPem, issuerId, keyId, membershipRenewsAt } from '../../shared/validation/apple-account-fields';

export const connectShape = {
  issuer_id: issuerId(),
  key_id: keyId(),
  private_key: apiKeyPem(),
  mode: accountMode(),
  weight: accountWeight(),
  tiers: accountTiers(),
  membership_renews_at: membershipRenewsAt(),
};

export function parseRequest({ event, params }: Pick<RequestState, 'event' | 'params'>): { action: 'list' } | ({ action: 'connect' } & ConnectInput) {
  if (event.httpMethod === 'GET') {
    parseManagementParams(params, { shape: {} });
    return { action: 'list' };
  }
  const p = parseManagementParams(params, { shape: connectShape });
  return { action: 'connect', issuerId: p.issuer_id, keyId: p.key_id, privateKeyPem: p.private_key, mode: p.mode, weight: p.weight, tiers: p.tiers, membershipRenewsAt: p.membership_renews_at };
}
