import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    st: describe(z.optional(z.string()), "The capture's one-time ticket (43 characters), the only thing the capture's redirect here carries: the first open spends it, sets the session cookie and answers 303 to the page without it"),
    done: describe(z.optional(z.enum(['ready', 'review'])), 'What the last redeem or re-issue did (set by its redirect)'),
    mode: describe(z.optional(z.enum(['instant', 'review'])), 'A reseller link may fix the mode of the codes redeemed here'),
  }),
  raw: { status: 200, contentType: 'text/html', description: 'The install page, in the language of Accept-Language / X-Lang' },
  extraStatuses: { '303': 'The one-time ticket was exchanged: Set-Cookie customer_session (HttpOnly, SameSite=Strict, Secure on https, 30 minutes), Location the page without the ticket' },
  notes:
    "For the customer's iPhone: the source's name, icon and announcement, a \"Get my UDID\" button (the source's profile), and once captured the UDID with a copy button, one-tap links for AltStore, SideStore, Feather and ESign and the feed URL as text. Content-Security-Policy allows no outside script; a spent, unknown or expired one-time ticket shows the button again with a notice. Only the session shows the device: a `udid` or capture `ticket` in the URL is ignored. The feed URL (with its device key) is shown only to a session whose capture was made for this source, and not after the owner revoked the device's URL (a new capture brings a new one). 600 per minute per IP per source.",
};
