import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({ kid: describe(z.string(), 'A certificate of the proven device (its card on the page links here)') }),
  raw: { status: 200, contentType: 'application/zip', description: '`<device name or UDID>-<kid>.zip` holding certificate.p12, profile.mobileprovision and password.txt' },
  notes:
    "Only with the customer's session cookie (a device proven through the Profile Service, 30 minutes), and only for a certificate of that UDID on this tenant that is usable: no session → 401 session_required (checked before the parameters); another UDID's or unknown kid → 403 certificate_not_found; in review, revoked or expired → 409 certificate_not_ready; disabled by its owner (the reseller) → 409 certificate_disabled. 60 per minute per IP.",
};
