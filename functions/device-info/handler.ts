import { createHandler } from '../../shared/http/create-handler';
import { deviceInfoRoute } from '../../shared/routes/devices';
import { useMessages } from '../../shared/i18n/localize';
import { deviceMessages } from '../../shared/i18n/messages/device';
import { findOwnedDevice } from '../../shared/domain/devices/device-service';
import { infoView } from '../../shared/records/device';
import { feedUrlFields, sourceForFeedUrl } from '../../shared/domain/sources/device-url-service';
import { requestBaseUrl } from '../../shared/http/request-url';
import { deviceReadWith, deviceReadWithToken } from '../../shared/http/device-read-with-token';
import { countingAhead } from '../../shared/http/owner-count-ahead';
import { parseRequest } from './schema';

useMessages(deviceMessages);

export const handler = createHandler(deviceInfoRoute, async (state) => {
  const { selector, sourceId } = parseRequest(state);
  // With `source_id`, the device's own feed URL on that source rides along (the source read beside the device's).
  const [device, feedSource] = await Promise.all([findOwnedDevice(state.actor, selector, deviceReadWith(state, selector.kid)), sourceForFeedUrl(state.actor, sourceId)]);
  return { data: { ...infoView(device), ...(await feedUrlFields(feedSource, device.udid, requestBaseUrl(state.event, state.tenant), Math.floor(state.now / 1000))) } };
}, { readWithToken: countingAhead(deviceInfoRoute, deviceReadWithToken) });
