import { createHandler } from '../../shared/http/create-handler';
import { sourceHealth } from '../../shared/domain/link-health/health-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { echoedSourceShape, requireSameSource } from '../../shared/validation/echoed-source';

export const handler = createHandler('source-health', async ({ params, pathParams, actor }) => {
  const sourceId = requireSameSource(parseManagementParams(params, { shape: echoedSourceShape }), pathParams.source_id ?? '');
  return { data: await sourceHealth(actor, sourceId) };
});
