import { createHandler } from '../../shared/http/create-handler';
import { createAppRoute } from '../../shared/routes/apps';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { subscriptionStateMessages } from '../../shared/i18n/messages/subscription-state';
import { quotaMessages } from '../../shared/i18n/messages/quota';
import { writableLimits } from '../../shared/domain/subscriptions/owner-limits';
import { createAppDraft } from '../../shared/domain/sources/source-service';
import { inspectAfterWrite } from '../../shared/domain/ipa/inspection-service';
import { parseRequest } from './schema';
import '../../shared/stores/subscriptions';

useMessages(managementMessages, subscriptionStateMessages, quotaMessages);

export const handler = createHandler(createAppRoute, async (state) => {
  const { sourceId, fields } = parseRequest(state);
  const now = Math.floor(state.now / 1000);
  return { data: await createAppDraft(state.actor, sourceId, fields, await writableLimits(state.actor, state.tenant, now), now, inspectAfterWrite(state.tenant.settings, now)) };
});
