import { createHandler } from '../../shared/http/create-handler';
import { updateAppRoute } from '../../shared/routes/apps';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { subscriptionStateMessages } from '../../shared/i18n/messages/subscription-state';
import { appLifecycleMessages } from '../../shared/i18n/messages/app-lifecycle';
import { writableLimits } from '../../shared/domain/subscriptions/owner-limits';
import { editApp } from '../../shared/domain/sources/source-service';
import { inspectAfterWrite } from '../../shared/domain/ipa/inspection-service';
import { parseRequest } from './schema';
import '../../shared/stores/subscriptions';

useMessages(managementMessages, subscriptionStateMessages, appLifecycleMessages);

export const handler = createHandler(updateAppRoute, async (state) => {
  const { sourceId, appId, changes } = parseRequest(state);
  const now = Math.floor(state.now / 1000);
  await writableLimits(state.actor, state.tenant, now);
  return { data: await editApp(state.actor, sourceId, appId, changes, now, inspectAfterWrite(state.tenant.settings, now)) };
});
