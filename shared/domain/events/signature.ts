/**
 * Webhook signatures: `X-Signature: t=<unix seconds>,sha256=<hex HMAC-SHA256 of "<t>.<raw body>">`. The
 * timestamp is inside what is signed, so a receiver can refuse an old delivery replayed later (link-health
 * alerts sign the body alone; events add the time). The README's verification snippet is this in reverse.
 */
import { createHmac } from 'node:crypto';

export const EVENT_SIGNATURE_HEADER = 'X-Signature';

export function signEvent(rawBody: string, secret: string, timestamp: number): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
  return `t=${timestamp},sha256=${mac}`;
}
