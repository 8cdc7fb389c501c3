import { createHandler } from '../../shared/http/create-handler';
import { userWebhookRoute } from '../../shared/routes/account';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { eventMessages } from '../../shared/i18n/messages/events';
import { removeWebhook, setWebhook, showWebhook } from '../../shared/domain/events/webhook-service';
import { parseRequest } from './schema';

useMessages(managementMessages, eventMessages);

export const handler = createHandler(userWebhookRoute, async (state) => {
  const request = parseRequest(state);
  if (request.action === 'show') {
    const data = await showWebhook(state.user, state.actor);
    return { data, ...(data.webhook && !data.webhook.enabled ? { message: { key: 'webhook_disabled_notice' as const } } : {}) };
  }
  if (request.action === 'remove') {
    const data = await removeWebhook(state.user, state.actor);
    return { data, message: { key: data.deleted ? 'webhook_deleted' : 'webhook_not_set' } };
  }
  const { data, created } = await setWebhook(state.user, state.actor, request);
  return { data, message: { key: created ? 'webhook_created' : 'webhook_updated' } };
});
