import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    d: describe(z.string(), 'The sealed device reference the link was issued for (empty: issued without a device)'),
    exp: describe(z.string(), 'Unix seconds after which the link is refused'),
    l: describe(z.optional(z.literal('1')), 'Present when the app (every release of it) was locked when the link was issued'),
    sig: describe(z.string(), 'HMAC-SHA256 of source, app, device reference, exp (and the lock, when l is given) under the source secret'),
  }),
  raw: { status: 302, description: 'Redirect (Location) to the build' },
  notes:
    'A download link from the feed. Checked in order: signature (bad_signature), a link issued without a UDID (udid_required), expiry (link_expired), a device the owner blocked (blocked; the reserved app id 0 of the blocked document always refuses blocked) or disabled (device_disabled), a link issued under a device key the owner revoked or replaced since (device_url_revoked), the app (unknown or unpublished: 404), its lock — the whole app’s: this release’s, or any release’s when the link says l=1 (locked, unless the proven device unlocked the source and the unlock still runs). Refusals answer HTTP 403, code 403, with data.error and a localized msg. 600 requests per minute per caller IP per source.',
};
