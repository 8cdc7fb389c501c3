import { createHandler } from '../../shared/http/create-handler';
import { unlockCodesRoute } from '../../shared/routes/protection';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { subscriptionStateMessages } from '../../shared/i18n/messages/subscription-state';
import { writableLimits } from '../../shared/domain/subscriptions/owner-limits';
import { createUnlockCodes, listUnlockCodes } from '../../shared/domain/sources/protection-service';
import { parseRequest } from './schema';
import '../../shared/stores/protection';
import '../../shared/stores/subscriptions';

useMessages(managementMessages, subscriptionStateMessages);

export const handler = createHandler(unlockCodesRoute, async (state) => {
  const request = parseRequest(state);
  if (request.action === 'list') return { data: await listUnlockCodes(state.actor, request.sourceId) };
  const now = Math.floor(state.now / 1000);
  await writableLimits(state.actor, state.tenant, now);
  return { data: await createUnlockCodes(state.actor, request.sourceId, request, now) };
});
