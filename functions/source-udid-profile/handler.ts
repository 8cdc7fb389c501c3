import { sourceOnTenant } from '../../shared/domain/sources/source-lookup';
import { createPublicHandler } from '../../shared/http/create-public-handler';
import { useMessages } from '../../shared/i18n/localize';
import { udidProfileMessages } from '../../shared/i18n/messages/udid-profile';
import { sourceUdidProfileRoute } from '../../shared/routes/udid-capture';
import { answerWithProfile } from '../../shared/handlers/profile-answer';
import { parseRequest } from './schema';

useMessages(udidProfileMessages);

/** GET /api/rjy/{source_id}/udid.mobileconfig: the profile the source's install page links to. */
export const handler = createPublicHandler(sourceUdidProfileRoute, async (state) => {
  const { sourceId, returnUrl } = parseRequest(state);
  const source = await sourceOnTenant(sourceId, state.tenant.tenantId, state.tenant.storefrontOwner);
  return answerWithProfile(state, { source, returnUrl });
});
