import { addedCertificateData, legacyAddRequest } from '../../shared/contracts/device-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = { request: legacyAddRequest, response: addedCertificateData, notes: 'The legacy instant add: /api/adddevice/v2 with mode=instant.' };
