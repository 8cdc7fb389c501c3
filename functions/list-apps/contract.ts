import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { appListData } from '../../shared/contracts/subscription-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';
import { listAppsShape } from './schema';

export const contract: FunctionContract = {
  request: z.object({
    status: describe(listAppsShape.status, 'Only drafts or only published apps'),
    limit: describe(listAppsShape.limit, 'Apps per page, 1–100 (default 20)'),
    cursor: describe(listAppsShape.cursor, 'next_cursor of the previous page'),
  }),
  response: appListData,
  notes: "The source's apps by id, drafts and published, each in the app management view.",
};
