import { createHandler } from '../../shared/http/create-handler';
import { deviceInfoRoute } from '../../shared/routes';
import { useMessages } from '../../shared/i18n/localize';
import { deviceMessages } from '../../shared/i18n/messages/device';
import { findOwnedDevice } from '../../shared/domain/devices/device-service';
import { infoView } from '../../shared/domain/devices/device';
import { parseRequest } from './schema';

useMessages(deviceMessages);

export const handler = createHandler(deviceInfoRoute, async (state) => {
  const { selector } = parseRequest(state);
  return { data: infoView(await findOwnedDevice(state.actor, selector)) };
});
