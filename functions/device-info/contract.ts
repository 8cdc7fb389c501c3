import { deviceInfoData, deviceSelectorRequest } from '../../shared/contracts/device-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: deviceSelectorRequest,
  response: deviceInfoData,
  notes: 'One of kid/udid is required; kid is recommended for an exact match.',
};
