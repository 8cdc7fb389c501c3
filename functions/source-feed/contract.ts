import * as z from 'zod/mini';
import { kidParam, udidParam } from '../../shared/contracts/device-contract';
import type { FunctionContract } from '../../infra/openapi/openapi-document';

export const contract: FunctionContract = {
  request: z.object({ udid: udidParam, kid: kidParam }),
  notes: 'The public source feed read by AltStore/SideStore, Feather and ESign-family clients. The asking device is named by udid (and optionally kid).',
};
