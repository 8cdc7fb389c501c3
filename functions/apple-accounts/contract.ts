import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { ownerAccount, ownerAccountList } from '../../shared/contracts/apple-account-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    account_id: describe(z.optional(z.string()), 'GET: show this account instead of the list. POST: act on this account (with action) instead of connecting one'),
    action: describe(z.optional(z.enum(['rotate_key', 'renew_certificate', 'set_membership', 'pause', 'resume', 'retire'])), 'POST with account_id (required): what to do'),
    issuer_id: describe(z.optional(z.string()), 'Connecting and rotate_key (required): the issuer id App Store Connect shows above the keys (a UUID)'),
    key_id: describe(z.optional(z.string()), 'Connecting and rotate_key (required): the key id (10 characters)'),
    private_key: describe(z.optional(z.string()), 'Connecting and rotate_key (required): the .p8 file as downloaded (PEM; line breaks may be written \\n). The key needs the Admin or App Manager role. Never shown again'),
    mode: describe(z.optional(z.enum(['instant', 'review'])), 'Connecting: instant (default) or review: how Apple treats new devices on this team'),
    weight: describe(z.optional(z.union([z.number(), z.string()])), 'Connecting: 1–1000000, lower weights are used first (default 100)'),
    tiers: describe(z.optional(z.union([z.array(z.number()), z.string()])), 'Connecting: the warranty tiers it sells (default: every tier of its mode)'),
    membership_renews_at: describe(z.optional(z.union([z.number(), z.string()])), "Connecting and set_membership (required there): Unix seconds of the membership's renewal, within the coming year (Apple's API does not say it); 0 or absent: unknown (shown as null, never guessed)"),
  }),
  response: z.union([ownerAccountList, ownerAccount]),
  extraStatuses: { '202': 'renew_certificate accepted: the new certificate exists and data (the account) has renewal.state running; the devices are renewed in the background (follow renewal.done/total, or wait for the account.renewal event)' },
  notes:
    "GET lists the caller's accounts (their private pool, type=1) with slots per device class, the membership renewal, the certificate's expiry, the state and alerts; with account_id, one. POST without account_id connects an account with only an App Store Connect API key: the service checks the key with Apple (apple_key_invalid), makes a distribution certificate from a key pair and CSR it generates (apple_key_role when the key may not; apple_certificate_limit at the team's cap, with data.certificates), and finds or makes the wildcard bundle id; a connection that cannot finish removes what it made at Apple (apple_connect_failed). POST with account_id and action: rotate_key (a new key of the same team: apple_key_other_team otherwise; a failing account becomes active), renew_certificate (answered 202 once the new certificate exists, with data.renewal running; a background job then gives every usable certificate on the account a new profile and .p12 — no slot spent, the previous certificate is not revoked — with progress in renewal.done/total and an account.renewal event at the end; a second renew while one runs is apple_account_renewing), set_membership (membership_renews_at: when the membership renews, or 0 for unknown), pause/resume (adds with type=1 pass a paused account by), retire (for good: no new devices; its certificates stay valid until they expire). Only the caller's own accounts: any other account_id is apple_account_not_found (404), whoever's it is. The .p8 and the private keys are sealed at rest and never returned.",
};
