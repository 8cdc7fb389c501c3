import * as z from 'zod/mini';
import { createdUnlockCodesData } from '../../shared/contracts/source-contract';
import type { FunctionContract } from '../../infra/openapi/openapi-document';
import { createUnlockCodesShape } from './schema';

export const contract: FunctionContract = {
  request: z.object(createUnlockCodesShape),
  response: createdUnlockCodesData,
  notes: 'Creates count (1–100) unlock codes, each unlocking the source for days (1–3650) for the one UDID that uses it first.',
};
