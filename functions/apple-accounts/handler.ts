import { createHandler } from '../../shared/http/create-handler';
import { appleAccountsRoute } from '../../shared/routes/account';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { addDeviceMessages } from '../../shared/i18n/messages/add-device';
import { appleAccountMessages } from '../../shared/i18n/messages/apple-accounts';
import { connectAccount } from '../../shared/domain/accounts/connect-account';
import { listOwnerAccounts } from '../../shared/domain/accounts/owner-accounts';
import { ownerAccountView } from '../../shared/records/account';
import { parseRequest } from './schema';

useMessages(managementMessages, addDeviceMessages, appleAccountMessages);

export const handler = createHandler(appleAccountsRoute, async (state) => {
  const request = parseRequest(state);
  if (request.action === 'list') return { data: await listOwnerAccounts(state.actor) };
  const account = await connectAccount(state.actor, request, Math.floor(state.now / 1000));
  return { data: ownerAccountView(account), message: { key: 'apple_account_connected' as const } };
});
