import { createHandler } from '../../shared/http/create-handler';
import { deviceListRoute } from '../../shared/routes/devices';
import { useMessages } from '../../shared/i18n/localize';
import { appleAccountLookupMessages } from '../../shared/i18n/messages/apple-account-lookup';
import { selfServiceMessages } from '../../shared/i18n/messages/self-service';
import { pagingMessages } from '../../shared/i18n/messages/paging';
import { deviceMessages } from '../../shared/i18n/messages/device';
import { agentLookupMessages } from '../../shared/i18n/messages/agent-lookup';
import { listDevices } from '../../shared/domain/devices/device-list';
import { readSubject } from '../../shared/domain/agents/agent-access';
import { encodeCursor } from '../../shared/validation/list-params';
import { parseRequest } from './schema';

useMessages(selfServiceMessages, pagingMessages, deviceMessages, appleAccountLookupMessages, agentLookupMessages);

export const handler = createHandler(deviceListRoute, async (state) => {
  const request = parseRequest(state);
  // `agent`: one of the caller's agents' devices instead (never its certificates' files: the list holds none).
  const subject = await readSubject(state.user, state.tenant, request.agent);
  const page = await listDevices({ tenantId: state.actor.tenantId, userId: subject.userId }, request);
  return { data: { items: page.items, next: page.next ? encodeCursor({ k: page.next.kid, t: page.next.addtime }) : '' } };
});
