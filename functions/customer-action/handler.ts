import { redeemCode, reissueCertificate } from '../../shared/domain/self-service/customer-adds';
import { customerPagePath } from '../../shared/domain/self-service/pages';
import { createSessionHandler } from '../../shared/http/create-session-handler';
import { requestBaseUrl } from '../../shared/http/request-url';
import { useMessages } from '../../shared/i18n/localize';
import { addDeviceMessages } from '../../shared/i18n/messages/add-device';
import { customerActionMessages } from '../../shared/i18n/messages/customer-actions';
import { deviceMessages } from '../../shared/i18n/messages/device';
import { tokenMessages } from '../../shared/i18n/messages/token';
import { customerActionRoute } from '../../shared/routes/customer';
import { parseRequest } from './schema';
// The stores this function's rules reach, wired once when it loads.
import '../../shared/stores/ledger';
import '../../shared/stores/slots';
import '../../shared/stores/transactions';

useMessages(addDeviceMessages);
useMessages(customerActionMessages);
// A certificate that is not the proven device's is refused as device_not_found, whose message is the device's.
useMessages(deviceMessages, tokenMessages);

/** POST /api/customer/redeem | /api/customer/reissue: the proven device's add; 303 back to the page that shows it. */
export const handler = createSessionHandler(customerActionRoute, async (state) => {
  const request = parseRequest(state);
  const { device } = state;
  const now = Math.floor(state.now / 1000);
  const done =
    request.action === 'redeem'
      ? await redeemCode(device, state.tenant, { code: request.code, mode: request.mode }, now)
      : await reissueCertificate(device, state.tenant, request.kid, now);
  const back = new URL(`${requestBaseUrl(state.event, state.tenant)}${customerPagePath(request.sourceId)}`);
  // Back to the agent's store it came from (the site's page would show the site's brand instead).
  if (!request.sourceId && request.store) back.searchParams.set('store', request.store);
  if (request.action === 'redeem' && request.mode) back.searchParams.set('mode', request.mode);
  back.searchParams.set('done', done);
  return { raw: null, statusCode: 303, text: '', headers: { Location: back.toString(), 'Cache-Control': 'no-store' } };
});
