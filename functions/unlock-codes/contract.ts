import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { createdUnlockCodesData, unlockCodesData } from '../../shared/contracts/source-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';
import { createUnlockCodesShape } from './schema';

export const contract: FunctionContract = {
  request: z.object({
    count: describe(z.optional(createUnlockCodesShape.count), 'POST (required): how many codes, 1–100'),
    days: describe(z.optional(createUnlockCodesShape.days), 'POST (required): how many days each code unlocks for, 1–3650'),
  }),
  response: z.union([unlockCodesData, createdUnlockCodesData]),
  notes:
    "GET: the source's unlock codes, newest first, with the UDID that used each and until when its unlock runs. POST: creates count (1–100) codes, each unlocking the source for days (1–3650) for the one UDID that uses it first.",
};
