import { createHandler } from '../../shared/http/create-handler';
import { deviceInfoRoute } from '../../shared/routes';
import { findOwnedDevice } from '../../shared/domain/devices/device-service';
import { parseSelector } from '../../shared/domain/devices/device-params';
import { infoView } from '../../shared/domain/devices/device';
import { useMessages } from '../../shared/i18n/localize';
import { deviceMessages } from '../../shared/i18n/messages/device';

useMessages(deviceMessages);

export const handler = createHandler(deviceInfoRoute, async ({ params, tenant, user }) => {
  const device = await findOwnedDevice({ tenantId: tenant.tenantId, userId: user!.userId }, parseSelector(params));
  return { data: infoView(device) };
});
