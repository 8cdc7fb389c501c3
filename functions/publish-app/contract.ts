import { publishRequest, publishedAppData } from '../../shared/contracts/source-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: publishRequest,
  response: publishedAppData,
  notes:
    "Rule conflicts answer 40003 with data.error: already_published, draft_incomplete (data.fields), duplicate_version, quota_exceeded, and from reading the IPA at download_url: ipa_mismatch (the IPA's bundle identifier or version differs; data.fields names each, data.mismatches [{field, app, ipa}] both values), ipa_invalid (not an IPA, truncated, a zip bomb, or over the tenant's size cap: data.limit), ipa_pending (a large file is still being read; data.retry_after seconds), ipa_unreachable (the origin answered an error, data.status, or was too slow). An unchanged file (same ETag/Last-Modified/length) is not downloaded again: one HEAD.",
};
