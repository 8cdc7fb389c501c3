import { createHandler } from '../../shared/http/create-handler';
import { findOwnedDevice } from '../../shared/domain/devices/device-service';
import { parseSelector } from '../../shared/domain/devices/device-params';
import { infoView } from '../../shared/domain/devices/device';

export const handler = createHandler('device-info', async ({ params, tenant, user }) => {
  const device = await findOwnedDevice({ tenantId: tenant.tenantId, userId: user!.userId }, parseSelector(params));
  return { data: infoView(device) };
});
