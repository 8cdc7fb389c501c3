import { createHandler } from '../../shared/http/create-handler';
import { unlockCodesRoute } from '../../shared/routes';
import { createUnlockCodes, listUnlockCodes } from '../../shared/domain/sources/protection-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { createUnlockCodesShape } from './schema';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';

// GET lists the source's codes; POST creates a batch.
useMessages(managementMessages);

export const handler = createHandler(unlockCodesRoute, async ({ event, params, pathParams, tenant, user, now }) => {
  const actor = { tenantId: tenant.tenantId, userId: user!.userId };
  const sourceId = pathParams.source_id ?? '';
  if (event.httpMethod === 'GET') {
    parseManagementParams(params, { shape: {} });
    return { data: await listUnlockCodes(actor, sourceId) };
  }
  const input = parseManagementParams(params, { shape: createUnlockCodesShape });
  return { data: await createUnlockCodes(actor, sourceId, input, Math.floor(now / 1000)) };
});
