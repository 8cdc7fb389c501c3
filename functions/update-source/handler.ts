import { createHandler } from '../../shared/http/create-handler';
import { updateSourceRoute } from '../../shared/routes';
import { updateSourceSettings } from '../../shared/domain/sources/source-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { readOnlySourceFields, updateSourceShape } from './schema';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';

useMessages(managementMessages);

export const handler = createHandler(updateSourceRoute, async ({ params, pathParams, tenant, user, now }) => {
  const changes = parseManagementParams(params, { shape: updateSourceShape, readOnly: readOnlySourceFields, requireOne: true });
  const supplied = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const data = await updateSourceSettings({ tenantId: tenant.tenantId, userId: user!.userId }, pathParams.source_id ?? '', supplied, Math.floor(now / 1000));
  return { data };
});
