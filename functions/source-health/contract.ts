import { sourceEchoRequest, sourceHealthData } from '../../shared/contracts/link-health-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: sourceEchoRequest,
  response: sourceHealthData,
  notes: 'The last recorded probe of each published app: ok, failing, or unknown before the first probe.',
};
