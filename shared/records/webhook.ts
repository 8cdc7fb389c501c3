/**
 * A user's webhook and the rules of its URL. The URL is checked when it is set (scheme, no credentials, an
 * address written into it must be public unless private addresses are allowed) and again, after DNS, by the
 * fetch on every delivery (shared/fetch/safe-fetch.ts), which is what really keeps deliveries off private
 * networks: a name can resolve anywhere later.
 */
import { ipLiteral, isPublicAddress } from '../fetch/address-policy';
import { privateAddressesAllowed } from '../fetch/allow-private';

export interface Webhook {
  userId: string;
  tenantId: string;
  url: string;
  /** Subscribed event types. */
  events: string[];
  /** The HMAC key of the signatures; shown to the user once, when it is made. */
  secret: string;
  createdAt: number;
  updatedAt: number;
  lastAttemptAt: number;
  lastSuccessAt: number;
  /** HTTP status of the last attempt; 0 when no answer came. */
  lastStatus: number;
  /** Why the last attempt failed (`http_status`, `timeout`, `dns`, `refused`, `address`, `tls`, `redirect`); null after a success. */
  lastError: string | null;
  consecutiveFailures: number;
  /** When the current failure streak began; 0 when the last attempt succeeded. */
  failingSince: number;
  /** When 24 hours of failures disabled the webhook; 0 while enabled. */
  disabledAt: number;
  /** The latest delivery attempts, newest first (at most RECENT_DELIVERIES_KEPT stored; the first RECENT_DELIVERIES shown). */
  recentDeliveries: DeliveryAttempt[];
}

/** One delivery attempt as the webhook keeps it (stored and shown under these names). */
export interface DeliveryAttempt {
  /** Unix seconds the attempt was made. */
  at: number;
  event_id: string;
  type: string;
  /** 1 for the first attempt at the event, 2 for its first retry … */
  attempt: number;
  ok: boolean;
  /** HTTP status the receiver answered; 0 when no answer came. */
  status: number;
  /** Why it failed (as `lastError`); null when it succeeded. */
  error: string | null;
}

/** How many of the latest attempts GET /api/user/webhook answers. */
export const RECENT_DELIVERIES = 20;
/**
 * The stored list may grow to twice that before it is cut back to RECENT_DELIVERIES: one extra write every
 * 20 deliveries rather than one per delivery (an update cannot prepend to a list and cut its tail at once).
 */
export const RECENT_DELIVERIES_KEPT = 2 * RECENT_DELIVERIES;

export const WEBHOOK_URL_MAX_CHARS = 2048;

/** https, or plain http too where private addresses are allowed (locally and in tests); no credentials. */
export function isAcceptableWebhookUrl(value: string): boolean {
  if ([...value].length > WEBHOOK_URL_MAX_CHARS) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const allowPrivate = privateAddressesAllowed();
  if (!(allowPrivate ? ['https:', 'http:'] : ['https:']).includes(url.protocol)) return false;
  if (url.hostname.length === 0 || url.username !== '' || url.password !== '') return false;
  const literal = ipLiteral(url.hostname);
  if (literal && !allowPrivate && !isPublicAddress(literal)) return false;
  return true;
}

/** What `GET /api/user/webhook` shows: everything but the secret. */
export function webhookView(webhook: Webhook) {
  return {
    url: webhook.url,
    events: webhook.events,
    enabled: webhook.disabledAt === 0,
    created_at: webhook.createdAt,
    updated_at: webhook.updatedAt,
    last_attempt_at: webhook.lastAttemptAt,
    last_success_at: webhook.lastSuccessAt,
    last_status: webhook.lastStatus,
    last_error: webhook.lastError,
    consecutive_failures: webhook.consecutiveFailures,
    failing_since: webhook.failingSince,
    disabled_at: webhook.disabledAt,
    recent_deliveries: webhook.recentDeliveries.slice(0, RECENT_DELIVERIES),
  };
}
