import '../../shared/stores/ledger';
import { createHandler } from '../../shared/http/create-handler';
import { agentsRoute } from '../../shared/routes/agents';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { agentMessages } from '../../shared/i18n/messages/agents';
import { agentLookupMessages } from '../../shared/i18n/messages/agent-lookup';
import { changeAgent, createAgent, listAgents, showAgent } from '../../shared/domain/agents/agent-service';
import { topUpAgent } from '../../shared/domain/agents/agent-topup';
import { changeStorefront, readStorefront } from '../../shared/domain/agents/storefront-service';
import { storefrontMessages } from '../../shared/i18n/messages/storefront';
import { requestBaseUrl } from '../../shared/http/request-url';
import { parseRequest } from './schema';

useMessages(managementMessages, agentMessages, agentLookupMessages, storefrontMessages);

export const handler = createHandler(agentsRoute, async (state) => {
  const request = parseRequest(state);
  const now = Math.floor(state.now / 1000);
  switch (request.action) {
    case 'list':
      return { data: await listAgents(state.user, state.tenant) };
    case 'show':
      return { data: await showAgent(state.user, state.tenant, request.agentId) };
    case 'change':
      return { data: await changeAgent(state.user, state.tenant, request.agentId, request) };
    case 'topup':
      return { data: await topUpAgent(state.user, state.tenant, request.agentId, request.amount, now) };
    case 'storefront': {
      const base = requestBaseUrl(state.event, state.tenant);
      if (Object.keys(request.change).length === 0) return { data: await readStorefront(state.user, state.tenant, request.agentId, base) };
      const { data, message, params } = { params: undefined, ...(await changeStorefront(state.user, state.tenant, request.agentId, request.change, base, now)) };
      return { data, message: { key: message, ...(params ? { params } : {}) } };
    }
    case 'create': {
      const { agent, token } = await createAgent(state.user, state.tenant, request, now);
      return { data: { ...agent, token }, message: { key: 'agent_created' } };
    }
  }
});
