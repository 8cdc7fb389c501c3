import { createHandler } from '../../shared/http/create-handler';
import { subscriptionRoute } from '../../shared/routes/account';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { subscriptionMessages } from '../../shared/i18n/messages/subscriptions';
import { subscribe, subscriptionOverview } from '../../shared/domain/subscriptions/subscription-service';
import { parseRequest } from './schema';
// The stores this function's rules reach, wired once when it loads.
import '../../shared/stores/ledger';
import '../../shared/stores/plans';
import '../../shared/stores/subscriptions';
import '../../shared/stores/transactions';

useMessages(managementMessages, subscriptionMessages);

export const handler = createHandler(subscriptionRoute, async (state) => {
  const request = parseRequest(state);
  const now = Math.floor(state.now / 1000);
  if (request.action === 'read') return { data: await subscriptionOverview(state.user, state.tenant, now) };
  return { data: await subscribe(state.user, state.tenant, request.request, now) };
});
