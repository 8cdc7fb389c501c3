import { createHandler } from '../../shared/http/create-handler';
import { userBalanceRoute } from '../../shared/routes/account';
import { useMessages } from '../../shared/i18n/localize';
import { selfServiceMessages } from '../../shared/i18n/messages/self-service';
import { readBalance } from '../../shared/domain/ledger/statement';
import { parseRequest } from './schema';

useMessages(selfServiceMessages);

export const handler = createHandler(userBalanceRoute, async (state) => {
  parseRequest(state);
  return { data: await readBalance(state.user, state.tenant) };
});
