import { acceptDeviceResponse } from '../../shared/domain/udid-capture/capture-service';
import { captureRedirect } from '../../shared/domain/self-service/capture-return';
import { requestBaseUrl } from '../../shared/http/request-url';
import { createPublicHandler } from '../../shared/http/create-public-handler';
import { useMessages } from '../../shared/i18n/localize';
import { deviceAnswerMessages } from '../../shared/i18n/messages/device-answer';
import { udidProfileMessages } from '../../shared/i18n/messages/udid-profile';
import { udidCallbackRoute } from '../../shared/routes/udid-capture';
import { parseRequest } from './schema';

useMessages(deviceAnswerMessages, udidProfileMessages);

/** POST /api/udid/callback: a device's signed answer → 301 to one of the tenant's customer pages with only the
 * one-time `st`, or to a registered storefront with `udid` and the capture ticket. */
export const handler = createPublicHandler(udidCallbackRoute, async (state) => {
  const der = parseRequest(state);
  const now = Math.floor(state.now / 1000);
  const base = requestBaseUrl(state.event, state.tenant);
  const location = await captureRedirect(await acceptDeviceResponse(state.tenant, der, base, now), base, now);
  return { raw: null, statusCode: 301, text: '', headers: { Location: location, 'Cache-Control': 'no-store' } };
});
