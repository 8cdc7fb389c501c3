import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    ticket: describe(z.optional(z.string()), 'The capture ticket the callback added: when it verifies, the page shows its UDID, a copy button and the add-source links'),
    udid: describe(z.optional(z.string()), 'Added by the redirect; ignored (the page shows only the UDID the ticket proves)'),
  }),
  raw: { status: 200, contentType: 'text/html', description: 'The install page, in the language of Accept-Language / X-Lang' },
  notes:
    "For the customer's iPhone: the source's name, icon and announcement, a \"Get my UDID\" button (the source's profile), and once captured the UDID with a copy button, one-tap links for AltStore, SideStore, Feather and ESign and the feed URL as text. Content-Security-Policy allows no outside script; an expired or foreign ticket shows the button again with a notice. 600 per minute per IP per source.",
};
