import { createHandler } from '../../shared/http/create-handler';
import { findOwnedDevice } from '../../shared/domain/devices/device-service';
import { parseSelector } from '../../shared/domain/devices/device-params';
import { infoView } from '../../shared/domain/devices/device';

export const handler = createHandler('device-info', async ({ params, actor }) => {
  const device = await findOwnedDevice(actor, parseSelector(params));
  return { data: infoView(device) };
});
