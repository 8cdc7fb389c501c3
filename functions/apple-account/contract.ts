import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { ownerAccount, renewedAccount } from '../../shared/contracts/apple-account-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    action: describe(z.optional(z.enum(['rotate_key', 'renew_certificate', 'pause', 'resume'])), 'POST (required): what to do'),
    issuer_id: describe(z.optional(z.string()), 'rotate_key (required): the new key\'s issuer id'),
    key_id: describe(z.optional(z.string()), 'rotate_key (required): the new key\'s id'),
    private_key: describe(z.optional(z.string()), 'rotate_key (required): the new .p8 (PEM)'),
  }),
  response: z.union([renewedAccount, ownerAccount]),
  notes:
    "Only the caller's own accounts: any other account id is apple_account_not_found (404), whoever's it is. rotate_key: a new API key of the same team (checked with Apple: apple_key_invalid, apple_key_other_team); a failing account becomes active again. renew_certificate: a new distribution certificate, and for every usable certificate on the account a new profile and .p12 made with it — no slot spent; the previous certificate is not revoked, so installed apps keep working until it expires (apple_certificate_limit at the team's cap). pause/resume: adds with type=1 pass a paused account by. DELETE retires it for good: no new devices; its certificates stay valid until they expire.",
};
