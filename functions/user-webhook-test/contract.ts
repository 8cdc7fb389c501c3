import { webhookPingData } from '../../shared/contracts/event-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  response: webhookPingData,
  notes: 'Sends a signed `ping` event to the webhook now (not stored, not retried) and answers what the receiver said. 40003 webhook_not_set when there is none.',
};
