import type middy from '@middy/core';
import { useMessages } from '../../i18n/localize';
import { customerActionMessages } from '../../i18n/messages/customer-actions';
import { requireDevice } from '../customer-session';
import type { ApiEvent, ApiResult, AppContext } from '../request-state';

// Session auth's own answer: session_required.
useMessages(customerActionMessages);

/**
 * Session auth (routes whose auth is `session`): the device the customer's session cookie proves, into the
 * request state; without a valid session the request is refused (401 session_required) before the business
 * code runs. Registered after the per-IP limits, so a request without a session still counts against them.
 */
export function customerSession(): middy.MiddlewareObj<ApiEvent, ApiResult, Error, AppContext> {
  return {
    before: async (request) => {
      request.context.app.device = await requireDevice(request.context.app);
    },
  };
}
