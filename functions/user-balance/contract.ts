import { balanceData, tokenOnlyRequest } from '../../shared/contracts/self-service-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: tokenOnlyRequest,
  response: balanceData,
  notes: 'Your balance in cents of the site’s currency, and the price you pay for each add (your personal price where it is lower than the site’s).',
};
