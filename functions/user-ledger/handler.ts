import { createHandler } from '../../shared/http/create-handler';
import { userLedgerRoute } from '../../shared/routes/account';
import { useMessages } from '../../shared/i18n/localize';
import { selfServiceMessages } from '../../shared/i18n/messages/self-service';
import { pagingMessages } from '../../shared/i18n/messages/paging';
import { readLedgerPage } from '../../shared/domain/ledger/statement';
import { encodeCursor } from '../../shared/validation/list-params';
import { parseRequest } from './schema';

useMessages(selfServiceMessages, pagingMessages);

export const handler = createHandler(userLedgerRoute, async (state) => {
  const page = await readLedgerPage(state.user, state.tenant, parseRequest(state));
  return { data: { items: page.items, next: page.nextSeq !== undefined ? encodeCursor({ s: page.nextSeq }) : '' } };
});
