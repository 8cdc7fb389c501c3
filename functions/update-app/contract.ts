import * as z from 'zod/mini';
import { appDetailData, appFormatFieldDocs } from '../../shared/contracts/source-contract';
import { appFieldsShape } from '../../shared/validation/app-fields';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({ ...appFieldsShape, ...appFormatFieldDocs }),
  response: appDetailData,
  notes:
    'Only supplied fields change. A draft may change anything; a published app only description, version_description, icon_url, tint_color, developer_name, lock, screenshots and app_permissions (anything else: 40003 published_immutable).',
};
