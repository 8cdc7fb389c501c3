import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import type { WebhookSettings } from '../../shared/domain/events/webhook-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { BALANCE_THRESHOLD_MAX, eventTypes, flag, intBetween, webhookUrl } from '../../shared/validation/event-fields';

export const setWebhookShape = {
  url: webhookUrl(),
  events: z.optional(eventTypes()),
  rotate_secret: z.optional(flag()),
  balance_low_threshold: z.optional(intBetween(0, BALANCE_THRESHOLD_MAX)),
};

type WebhookRequest = { action: 'show' } | { action: 'remove' } | ({ action: 'set' } & WebhookSettings);

export function parseRequest({ event, params }: Pick<RequestState, 'event' | 'params'>): WebhookRequest {
  if (event.httpMethod === 'GET' || event.httpMethod === 'DELETE') {
    parseManagementParams(params, { shape: {} });
    return { action: event.httpMethod === 'GET' ? 'show' : 'remove' };
  }
  const p = parseManagementParams(params, { shape: setWebhookShape });
  return { action: 'set', url: p.url, events: p.events, rotateSecret: p.rotate_secret, balanceLowThreshold: p.balance_low_threshold };
}
