import { createHandler } from '../../shared/http/create-handler';
import { checkSourceHealthNow } from '../../shared/domain/link-health/health-check-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { echoedSourceShape, requireSameSource } from '../../shared/validation/echoed-source';

export const handler = createHandler('source-health-check', async ({ params, pathParams, actor }) => {
  const sourceId = requireSameSource(parseManagementParams(params, { shape: echoedSourceShape }), pathParams.source_id ?? '');
  return { data: await checkSourceHealthNow(actor, sourceId) };
});
