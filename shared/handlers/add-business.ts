/** The one add implementation behind `/api/adddevice/v2` and the legacy routes, which parse with their mode fixed. */
import { addDevice } from '../domain/add-device/add-device-service';
import { feedUrlFields, sourceForFeedUrl } from '../domain/sources/device-url-service';
import { requestBaseUrl } from '../http/request-url';
import type { AddParams } from '../validation/add-params';
import { DomainError } from '../domain/errors';
import type { BusinessHandler } from '../http/create-handler';
import type { AuthenticatedState } from '../http/request-state';
import { addDelivered, addRefused } from '../observability/metrics';
import { useMessages } from '../i18n/localize';
import { addDeviceMessages } from '../i18n/messages/add-device';
import { captureTicketMessages } from '../i18n/messages/capture-ticket';
import { withCapturedUdid } from '../domain/udid-capture/captured-udid';

useMessages(addDeviceMessages, captureTicketMessages);

export function addBusiness(parseRequest: (state: AuthenticatedState) => AddParams): BusinessHandler<AuthenticatedState> {
  return async (state) => {
    try {
      // `capture` (a verified capture's ticket) stands in for `udid`.
      const params = await withCapturedUdid(state.params, { tenantId: state.tenant.tenantId, userId: state.user.userId }, Math.floor(state.now / 1000));
      const request = parseRequest({ ...state, params });
      // The source is checked before the add: a wrong `source_id` refuses the request before anything is paid.
      const feedSource = await sourceForFeedUrl(state.actor, request.sourceId);
      const now = Math.floor(state.now / 1000);
      const added = await addDevice({ tenant: state.tenant, user: state.user, now }, request);
      addDelivered(request.mode);
      return { data: { ...added, ...(await feedUrlFields(feedSource, request.udid, requestBaseUrl(state.event, state.tenant), now)) } };
    } catch (error) {
      // A refusal the contract names (`data.error`); anything else is an internal error, counted as a 5xx.
      if (error instanceof DomainError) addRefused(error.reason);
      throw error;
    }
  };
}
