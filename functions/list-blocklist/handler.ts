import { createHandler } from '../../shared/http/create-handler';
import { listBlocklistRoute } from '../../shared/routes/protection';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { pagingMessages } from '../../shared/i18n/messages/paging';
import { blocklist } from '../../shared/domain/sources/protection-service';
import { nextCursor, parseRequest } from './schema';
import '../../shared/stores/protection';

useMessages(managementMessages, pagingMessages);

export const handler = createHandler(listBlocklistRoute, async (state) => {
  const { sourceId, limit, from } = parseRequest(state);
  const page = await blocklist(state.actor, sourceId, limit, from);
  return { data: { blocked: page.blocked, monitored: page.monitored, next: nextCursor(page.next) } };
});
