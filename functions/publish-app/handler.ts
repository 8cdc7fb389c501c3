import { createHandler } from '../../shared/http/create-handler';
import { publishAppRoute } from '../../shared/routes/apps';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { subscriptionStateMessages } from '../../shared/i18n/messages/subscription-state';
import { ipaMessages } from '../../shared/i18n/messages/ipa';
import { appLifecycleMessages } from '../../shared/i18n/messages/app-lifecycle';
import { quotaMessages } from '../../shared/i18n/messages/quota';
import { limitsUnder } from '../../shared/domain/subscriptions/owner-limits';
import { publishApp } from '../../shared/domain/sources/publish-service';
import { parseRequest } from './schema';
import '../../shared/stores/subscriptions';

useMessages(managementMessages, subscriptionStateMessages, ipaMessages, appLifecycleMessages, quotaMessages);

export const handler = createHandler(publishAppRoute, async (state) => {
  const { sourceId, appId } = parseRequest(state);
  const now = Math.floor(state.now / 1000);
  return { data: await publishApp(state.actor, sourceId, appId, (subscription) => limitsUnder(state.actor, state.tenant, now, subscription), now) };
});
