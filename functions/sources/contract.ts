import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { sourceDetailData, sourceListData } from '../../shared/contracts/subscription-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';
import { createSourceShape, listSourcesShape } from './schema';

export const contract: FunctionContract = {
  request: z.object({
    ...createSourceShape,
    name: describe(createSourceShape.name, 'POST (required): up to 100 characters'),
    limit: describe(listSourcesShape.limit, 'GET: sources per page, 1–100 (default 20)'),
    cursor: describe(listSourcesShape.cursor, 'GET: next_cursor of the previous page'),
  }),
  response: z.union([sourceListData, sourceDetailData]),
  notes:
    "GET: the caller's sources on this site, by id, a page at a time. POST: creates a source (name, and any setting update-source takes) within the plan: 40003 subscription_required without a running subscription or trial, subscription_expired once it ended, quota_exceeded (data.limit) when the plan's sources are all taken. Administrator-only (uid, tenant_id, is_official, expiry), read-only (source_id, source_url, app_count) and unknown fields answer 40002.",
};
