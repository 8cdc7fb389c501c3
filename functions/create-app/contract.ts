import * as z from 'zod/mini';
import { appDetailData, appFormatFieldDocs } from '../../shared/contracts/source-contract';
import { appFieldsShape } from '../../shared/validation/app-fields';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({ ...appFieldsShape, ...appFormatFieldDocs }),
  response: appDetailData,
  notes:
    'Creates a draft; name and version are required, the rest may follow before publishing. The plan allows 500 apps per source by default (40003 quota_exceeded). Read-only (id, source_id, status, publish_status, …), administrator-only and unknown fields answer 40002.',
};
