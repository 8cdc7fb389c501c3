import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    return: describe(z.optional(z.string()), "Where the customer returns: default the source's install page (with only the one-time st); else one of the tenant's own pages or a return target its operator registered (then with ?udid=…&ticket=…). Any other target is refused (400, return_not_allowed)"),
  }),
  raw: { status: 200, contentType: 'application/x-apple-aspen-config', description: 'The Profile Service profile (signed CMS when the tenant has a profile signer, else XML)' },
  notes: "The capture belongs to the source's owner (GET /api/udid/captures). An unknown source, or one of another tenant, is a 404 page. 60 per minute per IP per source.",
};
