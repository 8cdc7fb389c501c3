import { ledgerData, ledgerRequest } from '../../shared/contracts/self-service-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: ledgerRequest,
  response: ledgerData,
  notes:
    'Every change of your balance and every use of your activation codes, newest first; each entry was written in the same transaction as the change. Pass data.next as cursor for the next page; an empty next is the end.',
};
