import { createHandler } from '../../shared/http/create-handler';
import { addDeviceLegacyInstantRoute } from '../../shared/routes/add-device';
import { addBusiness } from '../../shared/handlers/add-business';
import { parseRequest } from './schema';

/** GET|POST /api/adddevice: the legacy instant add, same parameters and response as v2 in instant mode. */
export const handler = createHandler(addDeviceLegacyInstantRoute, addBusiness(parseRequest));
