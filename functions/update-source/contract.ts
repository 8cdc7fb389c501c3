import * as z from 'zod/mini';
import { sourceFormatFieldDocs, sourceSettingsData } from '../../shared/contracts/source-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';
import { updateSourceShape } from '../../shared/validation/source-settings';

export const contract: FunctionContract = {
  request: z.object({ ...updateSourceShape, ...sourceFormatFieldDocs }),
  response: sourceSettingsData,
  notes: 'Only supplied fields change; health_alert replaces the stored object whole. subtitle, description, header_url, website, tint_color and featured_apps only change how AltStore, SideStore and Feather present the source (empty clears). Administrator-only (uid, tenant_id, is_official, expiry), read-only (source_id, source_url, app_count) and unknown fields answer 40002.',
};
