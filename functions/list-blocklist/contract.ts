import { blocklistData, blocklistRequest } from '../../shared/contracts/source-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: blocklistRequest,
  response: blocklistData,
  notes: 'Blocked UDIDs (reason adder, cracker or manual), then the misuse monitor (UDIDs reported while their open_black flag was 0), each in UDID order, paged: at most limit entries in all per page; pass data.next as cursor until it is empty.',
};
