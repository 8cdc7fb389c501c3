import { addRequest, addedCertificateData } from '../../shared/contracts/device-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: addRequest,
  response: addedCertificateData,
  notes: 'Every failure is code 0 with data.error. The payment is held before Apple is called and refunded if nothing is delivered. Repeating an add returns the existing certificate (and a finished review). With source_id (one of your sources, checked before anything is paid) the answer carries feed_url, the device’s own feed URL on it.',
};
