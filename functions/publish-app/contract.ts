import { publishRequest, publishedAppData } from '../../shared/contracts/source-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: publishRequest,
  response: publishedAppData,
  notes: 'Rule conflicts answer 40003 with data.error: already_published, draft_incomplete (data.fields), duplicate_version, quota_exceeded.',
};
