import { createHandler } from '../../shared/http/create-handler';
import { addDeviceRoute } from '../../shared/routes/add-device';
import { addBusiness } from '../../shared/handlers/add-business';
import { parseRequest } from './schema';

/** GET|POST /api/adddevice/v2: `mode`/`add_mode` picks instant or review. */
export const handler = createHandler(addDeviceRoute, addBusiness(parseRequest));
