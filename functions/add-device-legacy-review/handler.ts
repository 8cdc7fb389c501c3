import { createHandler } from '../../shared/http/create-handler';
import { addDeviceLegacyReviewRoute } from '../../shared/routes/add-device';
import { addBusiness } from '../../shared/handlers/add-business';
import { parseRequest } from './schema';
// The stores this function's rules reach, wired once when it loads.
import '../../shared/stores/ledger';
import '../../shared/stores/slots';
import '../../shared/stores/transactions';

/** GET|POST /api/addyydevice: the legacy review (reservation) add, same parameters and response as v2 in review mode. */
export const handler = createHandler(addDeviceLegacyReviewRoute, addBusiness(parseRequest));
