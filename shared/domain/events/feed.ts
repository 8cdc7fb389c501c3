/**
 * The events feed: a user's events after a cursor, oldest first, one DynamoDB Query per page. A storefront
 * without a public URL polls it instead of receiving webhooks.
 *
 * `next_cursor` never moves past 30 seconds ago: an event is stamped when its transaction is built and may
 * commit a moment later, so a cursor at the very present could step over it. Events of the last 30 seconds
 * may therefore come twice; drop repeats by `id` (as for webhooks, delivery is at least once).
 */
import { nowSeconds } from '../../clock';
import { queryEventsPage } from '../../db/repositories/event-repository';
import { DomainError } from '../errors';
import type { Actor } from '../../records/source';
import type { TokenOwner } from '../../records/user';

export const SETTLE_SECONDS = 30;
export const EVENTS_PAGE = { default: 50, max: 100 } as const;
/** A cursor: a 10-digit second, optionally followed by `_<event id>` (what `next_cursor` gives). */
export const CURSOR_PATTERN = /^\d{10}(_ev_[a-z0-9]{20})?$/;

export interface FeedRequest {
  after?: string | undefined;
  types?: readonly string[] | undefined;
  limit?: number | undefined;
}

export async function listEvents(user: TokenOwner, actor: Actor, request: FeedRequest) {
  if (user.tenantId !== actor.tenantId) throw new DomainError('token_invalid', 'token_invalid');
  const limit = request.limit ?? EVENTS_PAGE.default;
  const page = await queryEventsPage(actor.userId, { after: request.after, limit, types: request.types });
  const after = request.after ?? '';
  let next: string;
  if (page.lastKey) {
    next = page.lastKey;
  } else {
    const settled = String(Math.max(0, nowSeconds() - SETTLE_SECONDS)).padStart(10, '0');
    const last = page.keys.at(-1) ?? settled;
    const candidate = last < settled ? last : settled;
    next = candidate > after ? candidate : after;
  }
  return { events: page.events, next_cursor: next, has_more: page.lastKey !== undefined };
}
