import { buildProfile } from '../../shared/domain/udid-capture/capture-service';
import { sourceOnTenant } from '../../shared/domain/sources/source-lookup';
import { createPublicHandler } from '../../shared/http/create-public-handler';
import { requestBaseUrl } from '../../shared/http/request-url';
import { localize, useMessages } from '../../shared/i18n/localize';
import { udidProfileMessages } from '../../shared/i18n/messages/udid-profile';
import { sourceUdidProfileRoute } from '../../shared/routes';
import { profileResult } from '../udid-profile/profile-answer';
import { parseRequest } from './schema';

useMessages(udidProfileMessages);

/** GET /api/rjy/{source_id}/udid.mobileconfig: the profile the source's install page links to. */
export const handler = createPublicHandler(sourceUdidProfileRoute, async (state) => {
  const { sourceId, returnUrl } = parseRequest(state);
  const source = await sourceOnTenant(sourceId, state.tenant.tenantId);
  const profile = await buildProfile({
    tenant: state.tenant,
    baseUrl: requestBaseUrl(state.event, state.tenant),
    source,
    returnUrl,
    description: localize(state.lang, 'udid_profile_description', { name: state.tenant.name }),
    now: Math.floor(state.now / 1000),
  });
  return profileResult(profile);
});
