import { reissueCertificate } from '../../shared/domain/self-service/customer-adds';
import { customerPagePath } from '../../shared/domain/self-service/pages';
import { createHandler } from '../../shared/http/create-handler';
import { requireDevice } from '../../shared/http/customer-session';
import { requestBaseUrl } from '../../shared/http/request-url';
import { useMessages } from '../../shared/i18n/localize';
import { addDeviceMessages } from '../../shared/i18n/messages/add-device';
import { customerActionMessages } from '../../shared/i18n/messages/customer-actions';
import { deviceMessages } from '../../shared/i18n/messages/device';
import { customerReissueRoute } from '../../shared/routes';
import { parseRequest } from './schema';

useMessages(addDeviceMessages);
useMessages(customerActionMessages);
// The error kind device_not_found (a certificate not of this device) names its own message.
useMessages(deviceMessages);

/** POST /api/customer/reissue: the free re-issue of a revoked certificate under warranty; 303 back to the page. */
export const handler = createHandler(customerReissueRoute, async (state) => {
  const { kid, sourceId } = parseRequest(state);
  const device = await requireDevice(state);
  const done = await reissueCertificate(device, state.tenant, kid, Math.floor(state.now / 1000));
  const back = new URL(`${requestBaseUrl(state.event)}${customerPagePath(sourceId)}`);
  back.searchParams.set('done', done);
  return { raw: null, statusCode: 303, text: '', headers: { Location: back.toString(), 'Cache-Control': 'no-store' } };
});
