import { createHandler } from '../../shared/http/create-handler';
import { transactionCount } from '../../shared/http/middlewares/transaction-count';
import { updateSourceRoute } from '../../shared/routes/sources';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { subscriptionStateMessages } from '../../shared/i18n/messages/subscription-state';
import { subscriptionWriteCondition } from '../../shared/domain/subscriptions/write-condition';
import { updateSourceSettings } from '../../shared/domain/sources/source-service';
import { sourceReadWith, sourceReadWithToken } from '../../shared/http/source-read-with-token';
import { parseRequest } from './schema';
import '../../shared/stores/subscriptions';

useMessages(managementMessages, subscriptionStateMessages);

export const handler = createHandler(updateSourceRoute, async (state) => {
  const { sourceId, changes } = parseRequest(state);
  const now = Math.floor(state.now / 1000);
  // The source was read with the token; its one write, a transaction, carries the rate-limit count and, on a
  // tenant that sells plans, the check of the owner's subscription (no plan limit is used here, only the right
  // to write): two round trips on every tenant.
  const condition = subscriptionWriteCondition(state.actor, state.tenant, now);
  return { data: await updateSourceSettings(state.actor, sourceId, changes, now, sourceReadWith(state, sourceId), condition) };
}, { readWithToken: sourceReadWithToken, transactionCount });
