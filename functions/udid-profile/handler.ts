import { buildProfile } from '../../shared/domain/udid-capture/capture-service';
import { createPublicHandler } from '../../shared/http/create-public-handler';
import { requestBaseUrl } from '../../shared/http/request-url';
import { localize, useMessages } from '../../shared/i18n/localize';
import { udidProfileMessages } from '../../shared/i18n/messages/udid-profile';
import { udidProfileRoute } from '../../shared/routes';
import { profileResult } from './profile-answer';
import { parseRequest } from './schema';

useMessages(udidProfileMessages);

/** GET /api/udid/profile?return=URL[&user=ID]: the tenant's Profile Service profile. */
export const handler = createPublicHandler(udidProfileRoute, async (state) => {
  const { returnUrl, userId } = parseRequest(state);
  const profile = await buildProfile({
    tenant: state.tenant,
    baseUrl: requestBaseUrl(state.event, state.tenant),
    returnUrl,
    userId,
    description: localize(state.lang, 'udid_profile_description', { name: state.tenant.name }),
    now: Math.floor(state.now / 1000),
  });
  return profileResult(profile);
});
