/** What the webhook and events routes take and answer, for the OpenAPI document. */
import * as z from 'zod/mini';
import { EVENT_TYPES } from '../records/event';
import { describe } from './describe';

export const eventTypeList = describe(
  z.union([z.array(z.enum(EVENT_TYPES)), z.string()]),
  `Event types: a JSON array or a comma-separated string of ${EVENT_TYPES.join(', ')}`,
);

export const serviceEvent = z.object({
  id: describe(z.string(), 'Unique event id (`ev_…`): the idempotency key; a repeat delivery carries the same id'),
  type: z.enum(EVENT_TYPES),
  created: describe(z.number(), 'Unix seconds'),
  tenant_id: z.string(),
  user_id: z.string(),
  data: describe(z.record(z.string(), z.unknown()), 'Per type: see the README, "Events and webhooks". Never a .p12, a profile or a secret'),
});

export const webhookState = z.object({
  url: z.string(),
  events: z.array(z.string()),
  enabled: describe(z.boolean(), 'false once 24 hours of failed deliveries disabled it; PUT again to re-enable'),
  created_at: z.number(),
  updated_at: z.number(),
  last_attempt_at: describe(z.number(), 'Unix seconds; 0 before the first delivery'),
  last_success_at: z.number(),
  last_status: describe(z.number(), 'HTTP status of the last delivery; 0 when no answer came'),
  last_error: describe(z.nullable(z.string()), 'http_status, timeout, dns, refused, address, tls, redirects, scheme; null after a success'),
  consecutive_failures: z.number(),
  failing_since: describe(z.number(), 'Unix seconds the current failure streak began; 0 when none'),
  disabled_at: describe(z.number(), 'Unix seconds; 0 while enabled'),
  recent_deliveries: describe(
    z.array(
      z.object({
        at: describe(z.number(), 'Unix seconds the attempt was made'),
        event_id: z.string(),
        type: describe(z.string(), 'The event type'),
        attempt: describe(z.number(), '1 for the first attempt at the event, 2 for its first retry …'),
        ok: describe(z.boolean(), 'The receiver answered 2xx'),
        status: describe(z.number(), 'HTTP status; 0 when no answer came'),
        error: describe(z.nullable(z.string()), 'As last_error; null when it succeeded'),
      }),
    ),
    'The latest 20 delivery attempts, newest first (test events not included); empty when the webhook is set again',
  ),
});

export const webhookData = z.object({
  webhook: describe(z.nullable(webhookState), 'null when no webhook is set'),
  balance_low_threshold: describe(z.number(), 'Cents; balance.low is sent when the balance falls below it (0 = off)'),
  secret: describe(z.optional(z.string()), 'The signing secret: only in the answer that created it (first PUT, or rotate_secret)'),
});

export const webhookDeleteData = z.object({ deleted: z.boolean() });

export const webhookPingData = z.object({
  event_id: z.string(),
  ok: describe(z.boolean(), 'The receiver answered 2xx'),
  status: describe(z.number(), 'HTTP status; 0 when no answer came'),
  error: z.nullable(z.string()),
});

export const eventsPageData = z.object({
  events: describe(z.array(serviceEvent), 'Oldest first'),
  next_cursor: describe(z.string(), 'Pass as `after` for the next page or the next poll; never more recent than 30 s ago'),
  has_more: describe(z.boolean(), 'Another page follows at once'),
});
