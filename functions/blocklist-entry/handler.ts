import { createHandler } from '../../shared/http/create-handler';
import { blocklistEntryRoute } from '../../shared/routes/protection';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { subscriptionStateMessages } from '../../shared/i18n/messages/subscription-state';
import { writableLimits } from '../../shared/domain/subscriptions/owner-limits';
import { blockByHand, unblock } from '../../shared/domain/sources/protection-service';
import { parseRequest } from './schema';
import '../../shared/stores/protection';
import '../../shared/stores/subscriptions';

useMessages(managementMessages, subscriptionStateMessages);

export const handler = createHandler(blocklistEntryRoute, async (state) => {
  const { action, sourceId, udid } = parseRequest(state);
  if (action === 'unblock') return { data: await unblock(state.actor, sourceId, udid) };
  const now = Math.floor(state.now / 1000);
  await writableLimits(state.actor, state.tenant, now);
  return { data: await blockByHand(state.actor, sourceId, udid, now) };
});
