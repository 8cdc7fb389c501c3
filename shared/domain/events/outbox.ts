/**
 * The outbox: an event is one more part of the transaction that makes the change it reports, so the change
 * and its event are written together or not at all (no crash can lose one, or report a change that did not
 * happen). Delivery follows from the table: its stream when deployed, the due index otherwise.
 */
import { nowSeconds } from '../../clock';
import { eventPutPart } from '../../db/repositories/event-repository';
import type { TransactionPart } from '../../db/transactions';
import { randomId } from '../../ids';
import type { EventOwner, EventType } from '../../records/event';

/**
 * The event's part of the caller's transaction. `created` is the clock when the part is made (just before
 * the write), not the start of the request or job, so the feed's order follows the writes closely.
 */
export function eventPart(type: EventType, owner: EventOwner, data: Record<string, unknown>): TransactionPart {
  return eventPutPart({ id: randomId('ev_', 20), type, created: nowSeconds(), tenant_id: owner.tenantId, user_id: owner.userId, data });
}
