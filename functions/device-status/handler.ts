import { createHandler } from '../../shared/http/create-handler';
import { changeDeviceStatus } from '../../shared/domain/devices/device-service';
import { parseAction, parseSelector } from '../../shared/domain/devices/device-params';
import { statusView } from '../../shared/domain/devices/device';
import { translate } from '../../shared/i18n/catalog';

export const handler = createHandler('device-status', async ({ params, actor, lang }) => {
  const selector = parseSelector(params);
  const action = parseAction(params.action);
  const device = await changeDeviceStatus(actor, selector, action);
  const statusName = translate(lang, device.enabled ? 'device_status_enabled' : 'device_status_disabled');
  return { data: statusView(device, statusName) };
});
