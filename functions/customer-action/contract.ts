import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    code: describe(z.optional(z.string()), '`redeem`: the activation code (letters and digits, 4–64, any case)'),
    mode: describe(z.optional(z.enum(['instant', 'review'])), '`redeem`: the mode the page was opened for; a code of the other mode is refused (code_mode_mismatch)'),
    kid: describe(z.optional(z.string()), "`reissue`: the proven device's revoked certificate"),
    source: describe(z.optional(z.string()), 'The source whose install page the form was on: the answer returns there (absent: /api/customer)'),
    store: describe(z.optional(z.string()), "The agent's store whose customer page the form was on (/api/customer?store=…): the answer returns there"),
  }),
  raw: { status: 303, description: 'Done: Location the page with done=ready (the certificate can be downloaded) or done=review (Apple reviews the device)' },
  notes:
    "`action` is `redeem` or `reissue` (else 400 naming action). A form post from the customer's page, with the session cookie (checked before the parameters: without one, 401 session_required whatever the form holds). redeem: the add the code's owner would make with it — the code fixes mode and tier, the public pool, the payment held before Apple, consumed once under any race. reissue: the add route's free re-issue for the certificate's owner, at its tier, never charged. Refusals are a short page in the request language naming the reason in X-Error: session_required (401), certificate_not_found (404), code_invalid / code_used / code_mode_mismatch / reissue_not_covered / no_account_available (409), redeem_limited or rate_limited (429: 10 per device per hour, 300 per tenant per hour, 10 failed code redeems per IP per hour, 60 per IP per minute).",
};
