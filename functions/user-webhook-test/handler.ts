import { createHandler } from '../../shared/http/create-handler';
import { userWebhookTestRoute } from '../../shared/routes/account';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { eventMessages } from '../../shared/i18n/messages/events';
import { pingWebhook } from '../../shared/domain/events/webhook-service';
import { parseRequest } from './schema';

useMessages(managementMessages, eventMessages);

export const handler = createHandler(userWebhookTestRoute, async (state) => {
  parseRequest(state);
  const data = await pingWebhook(state.user, state.actor);
  const params = { status: data.status, error: data.error ?? '' };
  return { data: { ...data }, message: { key: data.ok ? 'webhook_ping_delivered' : 'webhook_ping_failed', params } };
});
