import { createHandler } from '../../shared/http/create-handler';
import { createAppRoute } from '../../shared/routes';
import { createAppDraft } from '../../shared/domain/sources/source-service';
import { validationError } from '../../shared/domain/errors';
import { parseManagementParams } from '../../shared/validation/management-params';
import { appFieldsShape, readOnlyAppFields, supplied } from '../../shared/validation/app-fields';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';

useMessages(managementMessages);

export const handler = createHandler(createAppRoute, async ({ params, pathParams, tenant, user, now }) => {
  const fields = supplied(parseManagementParams(params, { shape: appFieldsShape, readOnly: readOnlyAppFields }));
  // A draft needs at least what names it; the rest can follow before publishing.
  const absent = (['name', 'version'] as const).filter((f) => fields[f] === undefined);
  if (absent.length) throw validationError('invalid_value', [...absent]);
  const data = await createAppDraft({ tenantId: tenant.tenantId, userId: user!.userId }, pathParams.source_id ?? '', fields, tenant.settings, Math.floor(now / 1000));
  return { data };
});
