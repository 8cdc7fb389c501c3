import { createHandler } from '../../shared/http/create-handler';
import { addDeviceRoute } from '../../shared/routes/add-device';
import { addBusiness } from '../../shared/handlers/add-business';
import { parseRequest } from './schema';
// The stores this function's rules reach, wired once when it loads.
import '../../shared/stores/ledger';
import '../../shared/stores/slots';
import '../../shared/stores/transactions';

/** GET|POST /api/adddevice/v2: `mode`/`add_mode` picks instant or review. */
export const handler = createHandler(addDeviceRoute, addBusiness(parseRequest));
