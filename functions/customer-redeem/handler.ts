import { redeemCode } from '../../shared/domain/self-service/customer-adds';
import { customerPagePath } from '../../shared/domain/self-service/pages';
import { createHandler } from '../../shared/http/create-handler';
import { requireDevice } from '../../shared/http/customer-session';
import { requestBaseUrl } from '../../shared/http/request-url';
import { useMessages } from '../../shared/i18n/localize';
import { addDeviceMessages } from '../../shared/i18n/messages/add-device';
import { customerActionMessages } from '../../shared/i18n/messages/customer-actions';
import { customerRedeemRoute } from '../../shared/routes';
import { parseRequest } from './schema';

useMessages(addDeviceMessages);
useMessages(customerActionMessages);

/** POST /api/customer/redeem: code + proven device → the add; 303 back to the page that shows the result. */
export const handler = createHandler(customerRedeemRoute, async (state) => {
  const { code, mode, sourceId } = parseRequest(state);
  const device = await requireDevice(state);
  const done = await redeemCode(device, state.tenant, { code, mode }, Math.floor(state.now / 1000));
  const back = new URL(`${requestBaseUrl(state.event)}${customerPagePath(sourceId)}`);
  if (mode) back.searchParams.set('mode', mode);
  back.searchParams.set('done', done);
  return { raw: null, statusCode: 303, text: '', headers: { Location: back.toString(), 'Cache-Control': 'no-store' } };
});
