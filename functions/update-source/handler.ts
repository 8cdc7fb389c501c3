import { createHandler } from '../../shared/http/create-handler';
import { transactionCount } from '../../shared/http/middlewares/transaction-count';
import { updateSourceRoute } from '../../shared/routes/sources';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { subscriptionStateMessages } from '../../shared/i18n/messages/subscription-state';
import { writableLimits } from '../../shared/domain/subscriptions/owner-limits';
import { updateSourceSettings } from '../../shared/domain/sources/source-service';
import { sourceReadWith, sourceReadWithToken } from '../../shared/http/source-read-with-token';
import { parseRequest } from './schema';
import '../../shared/stores/subscriptions';

useMessages(managementMessages, subscriptionStateMessages);

export const handler = createHandler(updateSourceRoute, async (state) => {
  const { sourceId, changes } = parseRequest(state);
  const now = Math.floor(state.now / 1000);
  await writableLimits(state.actor, state.tenant, now);
  // The source was read with the token; its one write, a transaction, carries the rate-limit count.
  return { data: await updateSourceSettings(state.actor, sourceId, changes, now, sourceReadWith(state, sourceId)) };
}, { readWithToken: sourceReadWithToken, transactionCount });
