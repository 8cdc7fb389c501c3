import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({ udid: describe(z.string(), 'The device: 25 or 40 hex characters (else 40002)') }),
  response: z.union([
    z.object({ udid: z.string(), url: describe(z.string(), 'The device-bound feed URL: …/api/rjy/<source>/appstore?dk=<device key>') }),
    z.object({ udid: z.string(), revoked: describe(z.boolean(), 'Whether the device had a key to revoke') }),
  ]),
  notes:
    'GET answers the device’s own feed URL on this source (its device key is issued on first request and stays the same until revoked). Only a reader with a device key is the device: its unlocks count, and with device_proof "required" nobody else gets the catalogue. DELETE revokes the key: the old URL then proves nothing, and the next GET issues a new one.',
};
