import { createHandler } from '../../shared/http/create-handler';
import { createAppDraft } from '../../shared/domain/sources/source-service';
import { validationError } from '../../shared/domain/errors';
import { parseManagementParams } from '../../shared/validation/management-params';
import { appFieldsShape, readOnlyAppFields, supplied } from '../../shared/validation/app-fields';

export const handler = createHandler('create-app', async ({ params, pathParams, tenant, actor, now }) => {
  const fields = supplied(parseManagementParams(params, { shape: appFieldsShape, readOnly: readOnlyAppFields }));
  // A draft needs at least what names it; the rest can follow before publishing.
  const absent = (['name', 'version'] as const).filter((f) => fields[f] === undefined);
  if (absent.length) throw validationError('invalid_value', [...absent]);
  const data = await createAppDraft(actor, pathParams.source_id ?? '', fields, tenant.settings, Math.floor(now / 1000));
  return { data };
});
