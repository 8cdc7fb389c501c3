import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { eventTypeList, webhookData, webhookDeleteData } from '../../shared/contracts/event-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    url: describe(z.optional(z.string()), 'PUT (required): https URL without credentials, up to 2048 characters (plain http where FETCH_ALLOW_PRIVATE=1)'),
    events: describe(z.optional(eventTypeList), 'PUT: the types to deliver; every type when omitted'),
    rotate_secret: describe(z.optional(z.union([z.boolean(), z.string()])), 'PUT: true/1 makes a new signing secret (answered once)'),
    balance_low_threshold: describe(z.optional(z.union([z.number(), z.string()])), 'PUT: cents, 0–1000000000; balance.low when the balance falls below it (0 = off)'),
  }),
  response: z.union([webhookData, webhookDeleteData]),
  notes:
    'PUT sets the webhook (the first time, or with rotate_secret, the answer carries the signing secret, shown only then; setting it again re-enables a disabled webhook). GET shows it without the secret, with the state of its deliveries. DELETE removes it. Deliveries: POST of the event JSON, header X-Signature: t=<unix>,sha256=<hex HMAC-SHA256 of "<t>.<body>">, X-Event-Id; retried with backoff for 24 h; disabled after 24 h of failures.',
};
