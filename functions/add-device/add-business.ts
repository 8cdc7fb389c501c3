/** The one add implementation behind `/api/adddevice/v2` and the legacy routes, which fix the mode. */
import type { AccountMode } from '../../shared/domain/accounts/account';
import { addDevice } from '../../shared/domain/add-device/add-device-service';
import { parseAddRequest } from '../../shared/domain/add-device/add-request';
import type { BusinessHandler } from '../../shared/http/create-handler';

export function addBusiness(fixedMode?: AccountMode): BusinessHandler {
  return async (state) => {
    const request = parseAddRequest(state.params, fixedMode);
    // The token middleware ran: a route with `auth: token` always has a user here.
    const user = state.user!;
    const added = await addDevice({ tenant: state.tenant, user, now: Math.floor(state.now / 1000) }, request);
    return { data: { ...added } };
  };
}
