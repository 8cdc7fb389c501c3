import { acceptDeviceResponse } from '../../shared/domain/udid-capture/capture-service';
import { createPublicHandler } from '../../shared/http/create-public-handler';
import { useMessages } from '../../shared/i18n/localize';
import { deviceAnswerMessages } from '../../shared/i18n/messages/device-answer';
import { udidCallbackRoute } from '../../shared/routes';
import { parseRequest } from './schema';

useMessages(deviceAnswerMessages);

/** POST /api/udid/callback: a device's signed answer → 301 to the return target with the UDID and a ticket. */
export const handler = createPublicHandler(udidCallbackRoute, async (state) => {
  const der = parseRequest(state);
  const { location } = await acceptDeviceResponse(state.tenant, der, Math.floor(state.now / 1000));
  return { raw: null, statusCode: 301, text: '', headers: { Location: location, 'Cache-Control': 'no-store' } };
});
