import type { z } from 'zod';
import { createHandler } from '../../shared/http/create-handler';
import { publishApp } from '../../shared/domain/sources/source-service';
import { validationError } from '../../shared/domain/errors';
import { positiveInt } from '../../shared/validation/fields';
import { parseManagementParams } from '../../shared/validation/management-params';

const appId = positiveInt();

export const handler = createHandler('publish-app', async ({ params, pathParams, tenant, user, now }) => {
  // Publishing takes no parameters beyond the path; anything sent is refused rather than ignored.
  parseManagementParams(params, { shape: {} as z.ZodRawShape });
  const id = appId.safeParse(pathParams.app_id);
  if (!id.success) throw validationError('invalid_value', ['app_id']);
  const data = await publishApp({ tenantId: tenant.tenantId, userId: user!.userId }, pathParams.source_id ?? '', id.data, tenant.settings, Math.floor(now / 1000));
  return { data };
});
