import { deviceInfoData, deviceInfoRequest } from '../../shared/contracts/device-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: deviceInfoRequest,
  response: deviceInfoData,
  notes: 'One of kid/udid is required; kid is recommended for an exact match. With source_id (one of your sources) the answer carries feed_url, the device’s own feed URL on it.',
};
