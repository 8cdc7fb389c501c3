import { createHandler } from '../../shared/http/create-handler';
import { transactionCount } from '../../shared/http/middlewares/transaction-count';
import { deviceStatusRoute } from '../../shared/routes/devices';
import { localize, useMessages } from '../../shared/i18n/localize';
import { deviceMessages } from '../../shared/i18n/messages/device';
import { changeDeviceStatus } from '../../shared/domain/devices/device-service';
import { statusView } from '../../shared/records/device';

import { deviceReadWith, deviceReadWithToken } from '../../shared/http/device-read-with-token';
import { parseRequest } from './schema';

useMessages(deviceMessages);

export const handler = createHandler(deviceStatusRoute, async (state) => {
  const { selector, action } = parseRequest(state);
  const device = await changeDeviceStatus(state.actor, selector, action, deviceReadWith(state, selector.kid));
  const statusName = localize(state.lang, device.enabled ? 'device_status_enabled' : 'device_status_disabled');
  return { data: statusView(device, statusName) };
}, { readWithToken: deviceReadWithToken, transactionCount });
