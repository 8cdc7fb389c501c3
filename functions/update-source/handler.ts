import { createHandler } from '../../shared/http/create-handler';
import { updateSourceSettings } from '../../shared/domain/sources/source-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { readOnlySourceFields, updateSourceShape } from './schema';

export const handler = createHandler('update-source', async ({ params, pathParams, actor, now }) => {
  const changes = parseManagementParams(params, { shape: updateSourceShape, readOnly: readOnlySourceFields, requireOne: true });
  const supplied = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const data = await updateSourceSettings(actor, pathParams.source_id ?? '', supplied, Math.floor(now / 1000));
  return { data };
});
