import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { feedDocument, reportData, unlockData } from '../../shared/contracts/source-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    udid: describe(z.optional(z.string()), 'The reading device: binds the download links. Counts only when given once and well formed (25 or 40 hex characters); otherwise as absent. With code: the UDID to unlock'),
    kid: describe(z.optional(z.string()), "A certificate of the owner's: can only withhold downloads (a disabled one), never lift a withholding"),
    code: describe(z.optional(z.string()), 'An unlock code: the request is then an unlock (GET or POST), never a feed read or a report'),
    value: describe(z.optional(z.string()), 'POST only, a misuse report: base64 (standard or URL-safe) of "<adderUDID>|<crackerUDID>"'),
  }),
  response: feedDocument,
  operationResponses: { unlock: unlockData, report: reportData },
  extraStatuses: { '304': 'Not modified (If-None-Match matched the ETag)' },
  notes: [
    'The public source feed read by AltStore/SideStore, Feather and ESign-family clients, on its own tenant host only. udid (given once, well formed) binds the download links; kid can only withhold. With encrypt_enabled 1 every downloadURL is a download gate link, and Accept: application/jose answers a JWE compact serialization (dir, A256GCM) under the source key instead of JSON. ETag and 304 for JSON. Cache-Control: a plain read without udid or kid is the same for every such reader, public, max-age=<tenant feedMaxAgeSeconds, default 60> (the stage cache serves it); a device read no-store when encrypt_enabled, else private, max-age=60; a JWE no-store. 600 reads per minute per caller IP per source.',
    'Locked apps show lock "1" and gate links refusing locked to a UDID that has not unlocked the source; a blocked UDID reads a localized "blocked by the source owner" document whose one placeholder app (bundle identifier blocked.<source_id>) links to the reserved app id 0.',
    'With code (and udid): an unlock. Success: code 1, data {udid, code, days, ends_at}, msg "Unlocked until …". Refusals answer code 0, HTTP 200, data.error unlock_code_used, unlock_code_unknown or udid_invalid; after 10 failed unlocks per IP per source in an hour, HTTP 429 code 0 rate_limited until the hour ends.',
    'Any other POST is a misuse report {"value": base64("<adder>|<cracker>")}: open_black 1 blocks the adder, open_black2 1 the cracker, otherwise the monitor counts them; data {blocked, monitored}. A report with no usable UDID is 400/40002. 60 reports per minute per IP per source.',
  ].join('\n\n'),
};
