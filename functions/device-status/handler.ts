import { createHandler } from '../../shared/http/create-handler';
import { changeDeviceStatus } from '../../shared/domain/devices/device-service';
import { statusView } from '../../shared/domain/devices/device';
import { translate } from '../../shared/i18n/catalog';
import { parseRequest } from './schema';

export const handler = createHandler('device-status', async (state) => {
  const { selector, action } = parseRequest(state);
  const device = await changeDeviceStatus(state.actor, selector, action);
  const statusName = translate(state.lang, device.enabled ? 'device_status_enabled' : 'device_status_disabled');
  return { data: statusView(device, statusName) };
});
