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
}

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
  };
}
