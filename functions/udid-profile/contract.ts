import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    return: describe(z.string(), "Where the customer returns: one of the tenant's own pages (then with only the one-time st) or a return target its operator registered (`tenant set --return-targets`; then with ?udid=…&ticket=…). An absolute https URL (http only to localhost), no fragment. Required; any other target is refused (400, return_not_allowed)"),
    user: describe(z.optional(z.string()), 'A reseller (user id) of this tenant: the capture is listed in their GET /api/udid/captures'),
  }),
  raw: { status: 200, contentType: 'application/x-apple-aspen-config', description: 'The Profile Service profile: a CMS SignedData (DER) when the tenant has a profile signer, else an XML plist' },
  notes:
    "Open it on the iPhone (Safari): iOS downloads it, the customer installs it in Settings, and the device POSTs its signed attributes to /api/udid/callback on the same host. The profile's Challenge is signed, single-use, bound to the tenant, the reseller and return, and expires in 15 minutes. X-Profile-Signed says whether it is signed. Refusals are a short HTML page. 60 per minute per IP.",
};
