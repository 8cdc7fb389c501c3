import * as z from 'zod/mini';
import { createHandler } from '../../shared/http/create-handler';
import { publishApp } from '../../shared/domain/sources/publish-service';
import { validationError } from '../../shared/domain/errors';
import { positiveInt, text } from '../../shared/validation/fields';
import { parseManagementParams } from '../../shared/validation/management-params';

const appId = positiveInt();

/**
 * The contract lets any parameter arrive in the query or the body, so the path's own two may be repeated
 * there; they must then name the same source and app. Anything else is refused rather than ignored.
 */
const echoedPathShape = { source_id: z.optional(text(200)), app_id: z.optional(positiveInt()) };

export const handler = createHandler('publish-app', async ({ params, pathParams, tenant, actor, now }) => {
  const echoed = parseManagementParams(params, { shape: echoedPathShape });
  const id = appId.safeParse(pathParams.app_id);
  if (!id.success) throw validationError('invalid_value', ['app_id']);
  const sourceId = pathParams.source_id ?? '';
  const mismatched = [
    ...(echoed.source_id !== undefined && echoed.source_id !== sourceId ? ['source_id'] : []),
    ...(echoed.app_id !== undefined && echoed.app_id !== id.data ? ['app_id'] : []),
  ];
  if (mismatched.length) throw validationError('invalid_value', mismatched);
  const data = await publishApp(actor, sourceId, id.data, tenant.settings, Math.floor(now / 1000));
  return { data };
});
