import { createHandler } from '../../shared/http/create-handler';
import { deviceUrlRoute } from '../../shared/routes/protection';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { requestBaseUrl } from '../../shared/http/request-url';
import { ownedDeviceUrl, revokeOwnedDeviceUrl } from '../../shared/domain/sources/device-url-service';
import { parseRequest } from './schema';

useMessages(managementMessages);

// The owner hands a customer the device's own feed URL (or ends it): the device key in it is the proof.
export const handler = createHandler(deviceUrlRoute, async (state) => {
  const { action, sourceId, udid } = parseRequest(state);
  if (action === 'revoke') return { data: await revokeOwnedDeviceUrl(state.actor, sourceId, udid, Math.floor(state.now / 1000)) };
  return { data: await ownedDeviceUrl(state.actor, sourceId, udid, requestBaseUrl(state.event, state.tenant), Math.floor(state.now / 1000)) };
});
