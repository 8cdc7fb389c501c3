import { createHandler } from '../../shared/http/create-handler';
import { agentRoute } from '../../shared/routes/agents';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { agentMessages } from '../../shared/i18n/messages/agents';
import { agentLookupMessages } from '../../shared/i18n/messages/agent-lookup';
import { changeAgent, showAgent } from '../../shared/domain/agents/agent-service';
import { parseRequest } from './schema';

useMessages(managementMessages, agentMessages, agentLookupMessages);

export const handler = createHandler(agentRoute, async (state) => {
  const request = parseRequest(state);
  if (request.action === 'show') return { data: await showAgent(state.user, state.tenant, request.agentId) };
  return { data: await changeAgent(state.user, state.tenant, request.agentId, request), message: { key: 'agent_updated' } };
});
