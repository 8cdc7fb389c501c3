import { unblockedData } from '../../shared/contracts/source-contract';
import type { FunctionContract } from '../../infra/openapi/openapi-document';

export const contract: FunctionContract = {
  response: unblockedData,
  notes: 'Takes the UDID of the path off the block list; unblocking one that is not blocked succeeds too (was_blocked false).',
};
