import { createHandler } from '../../shared/http/create-handler';
import { appleAccountsRoute } from '../../shared/routes/account';
import { useMessages } from '../../shared/i18n/localize';
import { appleAccountLookupMessages } from '../../shared/i18n/messages/apple-account-lookup';
import { managementMessages } from '../../shared/i18n/messages/management';
import { addDeviceMessages } from '../../shared/i18n/messages/add-device';
import { appleAccountMessages } from '../../shared/i18n/messages/apple-accounts';
import { deviceMessages } from '../../shared/i18n/messages/device';
import { connectAccount } from '../../shared/domain/accounts/connect-account';
import { listOwnerAccounts } from '../../shared/domain/accounts/owner-accounts';
import { ownerAccountView } from '../../shared/records/account';
import { parseRequest } from './schema';

useMessages(managementMessages, addDeviceMessages, deviceMessages, appleAccountMessages, appleAccountLookupMessages);

export const handler = createHandler(appleAccountsRoute, async (state) => {
  const request = parseRequest(state);
  if (request.action === 'list') return { data: await listOwnerAccounts(state.actor) };
  const account = await connectAccount(state.actor, request, Math.floor(state.now / 1000));
  return { data: ownerAccountView(account), message: { key: 'apple_account_connected' as const } };
});
