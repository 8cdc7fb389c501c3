import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  raw: {
    status: 301,
    description:
      "Captured: Location is the return target. Back to one of the tenant's customer pages (a source's install page, /api/customer) with only st, the one-time ticket that page spends for the customer's session; to a registered storefront target with udid and ticket (an ES256 JWT, 24 h, naming tenant, source, reseller and target) added to its query",
  },
  notes: [
    "Called by iOS, not by people: the body is the device's CMS SignedData (DER, Content-Type application/pkcs7-signature, at most 64 KB) over a plist of UDID, PRODUCT, VERSION, SERIAL, DEVICE_NAME and CHALLENGE.",
    'The signature (SHA-1 or SHA-256) and the signer chain up to an installed trust anchor are verified without validity dates; the challenge must be this tenant\'s, unexpired (15 minutes) and unused. Any refusal is a short HTML page (HTTP 400, X-Error names the reason: device_content_type, device_response_malformed, device_signature_invalid, device_signer_untrusted, device_attributes_invalid, challenge_invalid, challenge_expired, challenge_used, return_not_allowed when the challenge\'s return target is no longer the tenant\'s or registered) and stores nothing. 30 per minute per IP.',
  ].join('\n\n'),
};
