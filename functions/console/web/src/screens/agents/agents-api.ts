import { api, call } from '../../api/client';

/** Every agent action is one POST to `/api/user/agents`; what it sends says what it asks (the route's own rule). */
export function agentsCall(body: Record<string, unknown>) {
  return call(api.POST('/api/user/agents', { body: body as never }));
}
