import { createHandler } from '../../shared/http/create-handler';
import { appleAccountsRoute } from '../../shared/routes/account';
import { useMessages } from '../../shared/i18n/localize';
import { appleAccountLookupMessages } from '../../shared/i18n/messages/apple-account-lookup';
import { managementMessages } from '../../shared/i18n/messages/management';
import { addDeviceMessages } from '../../shared/i18n/messages/add-device';
import { appleAccountMessages } from '../../shared/i18n/messages/apple-accounts';
import { deviceMessages } from '../../shared/i18n/messages/device';
import { connectAccount } from '../../shared/domain/accounts/connect-account';
import { listOwnerAccounts, ownedAccount, retireAccount, rotateKey, setMembershipDate, setSelling } from '../../shared/domain/accounts/owner-accounts';
import { startRenewal } from '../../shared/domain/accounts/certificate-renewal';
import { ownerAccountView } from '../../shared/records/account';
import { parseRequest } from './schema';

useMessages(managementMessages, addDeviceMessages, deviceMessages, appleAccountMessages, appleAccountLookupMessages);

export const handler = createHandler(appleAccountsRoute, async (state) => {
  const request = parseRequest(state);
  const { actor } = state;
  const now = Math.floor(state.now / 1000);
  switch (request.action) {
    case 'list':
      return { data: await listOwnerAccounts(actor) };
    case 'show':
      return { data: ownerAccountView(await ownedAccount(actor, request.accountId)) };
    case 'connect':
      return { data: ownerAccountView(await connectAccount(actor, request, now)), message: { key: 'apple_account_connected' as const } };
    case 'retire':
      return { data: await retireAccount(actor, request.accountId), message: { key: 'apple_account_retired' as const } };
    case 'pause':
      return { data: await setSelling(actor, request.accountId, false), message: { key: 'apple_account_paused' as const } };
    case 'resume':
      return { data: await setSelling(actor, request.accountId, true), message: { key: 'apple_account_resumed' as const } };
    case 'rotate_key':
      return { data: await rotateKey(actor, request.accountId, request.key), message: { key: 'apple_account_key_rotated' as const } };
    case 'set_membership':
      return { data: await setMembershipDate(actor, request.accountId, request.membershipRenewsAt, now), message: { key: 'apple_account_membership_set' as const } };
    case 'renew_certificate': {
      // Accepted: the certificate exists; the devices' new profiles follow in the background (data.renewal).
      const data = await startRenewal(actor, request.accountId, now);
      return { data, statusCode: 202, message: { key: 'apple_account_renewal_started' as const, params: { devices: data.renewal?.total ?? 0 } } };
    }
  }
});
