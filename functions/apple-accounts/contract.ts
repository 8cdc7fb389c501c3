import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { ownerAccount, ownerAccountList } from '../../shared/contracts/apple-account-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    issuer_id: describe(z.optional(z.string()), 'POST (required): the issuer id App Store Connect shows above the keys (a UUID)'),
    key_id: describe(z.optional(z.string()), 'POST (required): the key id (10 characters)'),
    private_key: describe(z.optional(z.string()), 'POST (required): the .p8 file as downloaded (PEM; line breaks may be written \\n). The key needs the Admin or App Manager role. Never shown again'),
    mode: describe(z.optional(z.enum(['instant', 'review'])), 'POST: instant (default) or review: how Apple treats new devices on this team'),
    weight: describe(z.optional(z.union([z.number(), z.string()])), 'POST: 1–1000000, lower weights are used first (default 100)'),
    tiers: describe(z.optional(z.union([z.array(z.number()), z.string()])), "POST: the warranty tiers it sells (default: every tier of its mode)"),
    membership_renews_at: describe(z.optional(z.union([z.number(), z.string()])), "POST: Unix seconds of the membership's renewal (Apple's API does not say it); default: the certificate's expiry"),
  }),
  response: z.union([ownerAccountList, ownerAccount]),
  notes:
    'GET lists the caller\'s accounts (their private pool, type=1) with slots per device class, the membership renewal, the certificate\'s expiry, the state and alerts. POST connects an account with only an App Store Connect API key: the service checks the key with Apple (apple_key_invalid), makes a distribution certificate from a key pair and CSR it generates (apple_key_role when the key may not; apple_certificate_limit at the team\'s cap, with data.certificates), and finds or makes the wildcard bundle id. A connection that cannot finish removes what it made at Apple (apple_connect_failed). The .p8 and the private keys are sealed at rest and never returned.',
};
