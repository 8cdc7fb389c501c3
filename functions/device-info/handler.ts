import { createHandler } from '../../shared/http/create-handler';
import { findOwnedDevice } from '../../shared/domain/devices/device-service';
import { infoView } from '../../shared/domain/devices/device';
import { parseRequest } from './schema';

export const handler = createHandler('device-info', async (state) => {
  const { selector } = parseRequest(state);
  return { data: infoView(await findOwnedDevice(state.actor, selector)) };
});
