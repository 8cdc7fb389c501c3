import { appDetailData } from '../../shared/contracts/source-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  response: appDetailData,
  notes: 'Takes a published app out of the feed; it becomes a draft again (40003 not_published for a draft).',
};
