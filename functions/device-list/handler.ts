import { createHandler } from '../../shared/http/create-handler';
import { deviceListRoute } from '../../shared/routes/devices';
import { useMessages } from '../../shared/i18n/localize';
import { appleAccountLookupMessages } from '../../shared/i18n/messages/apple-account-lookup';
import { selfServiceMessages } from '../../shared/i18n/messages/self-service';
import { pagingMessages } from '../../shared/i18n/messages/paging';
import { deviceMessages } from '../../shared/i18n/messages/device';
import { listDevices } from '../../shared/domain/devices/device-list';
import { encodeCursor } from '../../shared/validation/list-params';
import { parseRequest } from './schema';

useMessages(selfServiceMessages, pagingMessages, deviceMessages, appleAccountLookupMessages);

export const handler = createHandler(deviceListRoute, async (state) => {
  const page = await listDevices(state.actor, parseRequest(state));
  return { data: { items: page.items, next: page.next ? encodeCursor({ k: page.next.kid, t: page.next.addtime }) : '' } };
});
