import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    kid: describe(z.string(), "The proven device's revoked certificate"),
    source: describe(z.optional(z.string()), 'The source whose install page the form was on: the answer returns there (absent: /api/customer)'),
  }),
  raw: { status: 303, description: 'Done: Location the page with done=ready or done=review' },
  notes:
    "A form post from the customer's page, with the session cookie: the add route's free re-issue for the certificate's owner, at its tier, never charged — if the certificate is not (or no longer) revoked inside its warranty window, or was already replaced, it is refused with reissue_not_covered (409). session_required (401), certificate_not_found (404), redeem_limited (429).",
};
