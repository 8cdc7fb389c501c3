import * as z from 'zod/mini';
import { blockEntryData, unblockedData } from '../../shared/contracts/source-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  response: z.union([blockEntryData, unblockedData]),
  notes:
    'PUT blocks the UDID of the path (25 or 40 hex characters, else 40002) on this source; it leaves the monitor, and blocking a blocked UDID keeps and answers its entry. DELETE takes it off the block list; unblocking one that is not blocked succeeds too (was_blocked false).',
};
