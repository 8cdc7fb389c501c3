import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    st: describe(z.optional(z.string()), "The capture's one-time ticket (43 characters): the first open spends it, sets the session cookie and answers 303 to the page without it"),
    done: describe(z.optional(z.enum(['ready', 'review'])), 'What the last redeem or re-issue did (set by its redirect)'),
    mode: describe(z.optional(z.enum(['instant', 'review'])), 'A reseller link may fix the mode of the codes redeemed here'),
    store: describe(z.optional(z.string()), "An agent's id: the agent's storefront on this site's domain (its name, logo, colours, notice, contact and buy link; its UDID profile); an id that is no agent of this site answers 404 store_not_found. On an agent's own domain the page is always that agent's"),
  }),
  raw: { status: 200, contentType: 'text/html', description: "The tenant's customer page (or an agent's storefront), in the language of Accept-Language / X-Lang" },
  extraStatuses: { '303': 'The one-time ticket was exchanged: Set-Cookie customer_session (HttpOnly, SameSite=Strict, Secure on https, 30 minutes), Location the page without the ticket' },
  notes:
    'For a customer without a source link: "Get my UDID" (the tenant profile returning here); once proven, the certificates of that UDID on this tenant, a zip download for each usable one, the free re-issue of a revoked one under warranty, and the activation-code form. A spent, unknown or expired ticket shows a notice and nothing of the device. 600 per minute per IP.',
};
