import { deviceListData, deviceListRequest } from '../../shared/contracts/self-service-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: deviceListRequest,
  response: deviceListData,
  notes:
    'Your certificates on this site, newest first. Pass data.next as cursor for the next page; an empty next is the end. Filters combine (all must match); an unknown parameter is refused. Never returns a .p12 or a profile.',
};
