import { healthCheckData, sourceEchoRequest } from '../../shared/contracts/link-health-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: sourceEchoRequest,
  response: healthCheckData,
  notes:
    'Probes the published apps now (HEAD, then a one-byte ranged GET; 10 s per probe; at most 3 redirects): at most 25 apps, least recently checked first, no probe started that could end after 20 s. Counts toward health_alert.failure_threshold like a scheduled probe and sends the alerts that calls for; does not move the schedule.',
};
