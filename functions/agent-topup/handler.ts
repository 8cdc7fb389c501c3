import '../../shared/stores/ledger';
import { createHandler } from '../../shared/http/create-handler';
import { agentTopUpRoute } from '../../shared/routes/agents';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { agentMessages } from '../../shared/i18n/messages/agents';
import { agentLookupMessages } from '../../shared/i18n/messages/agent-lookup';
import { topUpAgent } from '../../shared/domain/agents/agent-topup';
import { parseRequest } from './schema';

useMessages(managementMessages, agentMessages, agentLookupMessages);

export const handler = createHandler(agentTopUpRoute, async (state) => {
  const { agentId, amount } = parseRequest(state);
  const data = await topUpAgent(state.user, state.tenant, agentId, amount, Math.floor(state.now / 1000));
  return { data, message: { key: 'agent_topped_up', params: { amount: (amount / 100).toFixed(2) } } };
});
