import { createHandler } from '../../shared/http/create-handler';
import { agentsRoute } from '../../shared/routes/agents';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { agentMessages } from '../../shared/i18n/messages/agents';
import { agentLookupMessages } from '../../shared/i18n/messages/agent-lookup';
import { createAgent, listAgents } from '../../shared/domain/agents/agent-service';
import { parseRequest } from './schema';

useMessages(managementMessages, agentMessages, agentLookupMessages);

export const handler = createHandler(agentsRoute, async (state) => {
  const request = parseRequest(state);
  if (request.action === 'list') return { data: await listAgents(state.user, state.tenant) };
  const { agent, token } = await createAgent(state.user, state.tenant, request, Math.floor(state.now / 1000));
  return { data: { ...agent, token }, message: { key: 'agent_created' } };
});
