/**
 * Events: what a reseller is told about their devices and money. One item per event in the `events` table,
 * written in the same transaction as the change it reports (the outbox); the dispatcher delivers it to the
 * user's webhook and the events feed lists it.
 *
 * Adding a type is one line in `EVENT_TYPES` (and its `data` documented in the README).
 */
import type { Charge } from './reservation';

export const EVENT_TYPES = [
  /** An instant add delivered a certificate (or a review add that Apple enabled at once). */
  'device.added',
  /** A review finished: the certificate is ready. */
  'reservation.issued',
  /** A review failed; `refund` says what was given back. */
  'reservation.failed',
  /** Apple revoked the account's certificate; `reissue_until` ends the free re-issue window. */
  'device.revoked',
  /** The hosting account's membership ends within the tenant's notice period. */
  'device.expiring',
  /** The balance fell below the user's threshold (once per crossing). */
  'balance.low',
  /** The user's subscription ends within the tenant's notice period (once per end). */
  'subscription.expiring',
  /** The user's subscription ended: source writes are refused, feeds serve until the grace period ends. */
  'subscription.expired',
  /**
   * The account check found something on one of the user's own Apple accounts (`alert`: key_rejected,
   * certificate_revoked, certificate_expiring, slots_low), once per appearance.
   */
  'account.alert',
  /** A certificate renewal of one of the user's own Apple accounts ended (`state`: done or failed). */
  'account.renewal',
  /** A device proved its UDID through the reseller's profile (a source's, or the tenant's naming the user). */
  'udid.captured',
  /** An agent's add delivered: to every reseller above the agent, with that level's credit, cost and margin. */
  'agent.device_added',
  /** An agent's balance fell below its threshold (once per crossing): to its parent. */
  'agent.balance_low',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The test delivery of `POST /api/user/webhook/test`: signed like an event, never stored. */
export const PING_TYPE = 'ping';

/** Events are listed for 30 days, then DynamoDB deletes them (TTL). */
export const EVENT_RETENTION_SECONDS = 30 * 24 * 60 * 60;

/** What a charge or refund looks like inside an event: the kind and, for the balance, the cents. Never a code. */
export type MoneyView = { kind: 'balance'; amount: number } | { kind: 'code' } | { kind: 'free' };

export function moneyView(charge: Charge): MoneyView {
  if (charge.kind === 'balance') return { kind: 'balance', amount: charge.amount };
  return { kind: charge.kind };
}

/** An event as delivered and listed. `data` holds ids, states and amounts: never a .p12, a profile or a secret. */
export interface ServiceEvent {
  id: string;
  type: EventType;
  /** Unix seconds. */
  created: number;
  tenant_id: string;
  user_id: string;
  data: Record<string, unknown>;
}

/** The owner of an event: the user it is about, on their tenant. */
export interface EventOwner {
  tenantId: string;
  userId: string;
}
