import { createHandler } from '../../shared/http/create-handler';
import { userLedgerRoute } from '../../shared/routes/account';
import { useMessages } from '../../shared/i18n/localize';
import { selfServiceMessages } from '../../shared/i18n/messages/self-service';
import { pagingMessages } from '../../shared/i18n/messages/paging';
import { agentLookupMessages } from '../../shared/i18n/messages/agent-lookup';
import { readLedgerPage } from '../../shared/domain/ledger/statement';
import { readSubject } from '../../shared/domain/agents/agent-access';
import { encodeCursor } from '../../shared/validation/list-params';
import { parseRequest } from './schema';

useMessages(selfServiceMessages, pagingMessages, agentLookupMessages);

export const handler = createHandler(userLedgerRoute, async (state) => {
  const request = parseRequest(state);
  // `agent`: one of the caller's agents' ledger instead.
  const page = await readLedgerPage(await readSubject(state.user, state.tenant, request.agent), state.tenant, request);
  return { data: { items: page.items, next: page.nextSeq !== undefined ? encodeCursor({ s: page.nextSeq }) : '' } };
});
