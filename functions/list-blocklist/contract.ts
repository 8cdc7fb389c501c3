import { blocklistData } from '../../shared/contracts/source-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  response: blocklistData,
  notes: 'Blocked UDIDs (reason adder, cracker or manual) and the misuse monitor (UDIDs reported while their open_black flag was 0), most recent first.',
};
