import { createHandler } from '../../shared/http/create-handler';
import { deviceStatusRoute } from '../../shared/routes';
import { changeDeviceStatus } from '../../shared/domain/devices/device-service';
import { parseAction, parseSelector } from '../../shared/domain/devices/device-params';
import { statusView } from '../../shared/domain/devices/device';
import { localize } from '../../shared/i18n/localize';
import { useMessages } from '../../shared/i18n/localize';
import { deviceMessages } from '../../shared/i18n/messages/device';

useMessages(deviceMessages);

export const handler = createHandler(deviceStatusRoute, async ({ params, tenant, user, lang }) => {
  const selector = parseSelector(params);
  const action = parseAction(params.action);
  const device = await changeDeviceStatus({ tenantId: tenant.tenantId, userId: user!.userId }, selector, action);
  const statusName = localize(lang, device.enabled ? 'device_status_enabled' : 'device_status_disabled');
  return { data: statusView(device, statusName) };
});
