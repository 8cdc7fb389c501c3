import { createHandler } from '../../shared/http/create-handler';
import { userEventsRoute } from '../../shared/routes/account';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { listEvents } from '../../shared/domain/events/feed';
import { parseRequest } from './schema';

useMessages(managementMessages);

export const handler = createHandler(userEventsRoute, async (state) => ({ data: await listEvents(state.user, state.actor, parseRequest(state)) }));
