import { deviceStatusData, deviceStatusRequest } from '../../shared/contracts/device-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: deviceStatusRequest,
  response: deviceStatusData,
  notes: 'One of kid/udid is required; when a UDID has several certificates, kid picks one (code 21 otherwise).',
};
