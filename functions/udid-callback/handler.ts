import { acceptDeviceResponse } from '../../shared/domain/udid-capture/capture-service';
import { withCustomerTicket } from '../../shared/domain/self-service/capture-return';
import { requestBaseUrl } from '../../shared/http/request-url';
import { createPublicHandler } from '../../shared/http/create-public-handler';
import { useMessages } from '../../shared/i18n/localize';
import { deviceAnswerMessages } from '../../shared/i18n/messages/device-answer';
import { udidCallbackRoute } from '../../shared/routes/udid-capture';
import { parseRequest } from './schema';

useMessages(deviceAnswerMessages);

/** POST /api/udid/callback: a device's signed answer → 301 to the return target with the UDID and a ticket (and
 * the one-time page ticket `st` when it returns to a customer page). */
export const handler = createPublicHandler(udidCallbackRoute, async (state) => {
  const der = parseRequest(state);
  const now = Math.floor(state.now / 1000);
  // A capture returning to one of our customer pages also carries the one-time ticket that page exchanges.
  const location = await withCustomerTicket(await acceptDeviceResponse(state.tenant, der, now), requestBaseUrl(state.event, state.tenant), now);
  return { raw: null, statusCode: 301, text: '', headers: { Location: location, 'Cache-Control': 'no-store' } };
});
