import { createPublicHandler } from '../../shared/http/create-public-handler';
import { useMessages } from '../../shared/i18n/localize';
import { udidProfileMessages } from '../../shared/i18n/messages/udid-profile';
import { udidProfileRoute } from '../../shared/routes/udid-capture';
import { answerWithProfile } from '../../shared/handlers/profile-answer';
import { parseRequest } from './schema';

useMessages(udidProfileMessages);

/** GET /api/udid/profile?return=URL[&user=ID]: the tenant's Profile Service profile. */
export const handler = createPublicHandler(udidProfileRoute, async (state) => {
  const { returnUrl, userId } = parseRequest(state);
  return answerWithProfile(state, { returnUrl, userId });
});
