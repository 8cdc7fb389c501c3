import * as z from 'zod/mini';
import { deletedSourceData, sourceDetailData } from '../../shared/contracts/subscription-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  response: z.union([sourceDetailData, deletedSourceData]),
  notes:
    'GET: every setting of the source the owner may see, health_alert included, with its counts of drafts and published apps. DELETE: the source is gone at once (its feed answers 404), its place in the plan is given back, and its apps, unlock codes, block list and health records are removed with it (in the background when there are many). Both work whatever the subscription says.',
};
