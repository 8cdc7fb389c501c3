import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { feedDocument } from '../../shared/contracts/source-contract';
import type { FunctionContract } from '../../infra/openapi/openapi-document';

export const contract: FunctionContract = {
  request: z.object({
    udid: describe(z.optional(z.string()), 'The reading device: binds the download links. Counts only when given once and well formed (25 or 40 hex characters); otherwise as absent'),
    kid: describe(z.optional(z.string()), "A certificate of the owner's: can only withhold downloads (a disabled one), never lift a withholding"),
  }),
  response: feedDocument,
  extraStatuses: { '304': 'Not modified (If-None-Match matched the ETag)' },
  notes:
    'The public source feed read by AltStore/SideStore, Feather and ESign-family clients, on its own tenant host only. udid (given once, well formed) binds the download links; kid can only withhold. With encrypt_enabled 1 every downloadURL is a download gate link, and Accept: application/jose answers a JWE compact serialization (dir, A256GCM) under the source key instead of JSON. ETag and 304 for JSON; Cache-Control no-store when encrypt_enabled, else private, max-age=60. 600 reads per minute per caller IP per source.',
};
