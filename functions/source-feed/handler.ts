import { createHandler } from '../../shared/http/create-handler';
import { sourceFeed } from '../../shared/domain/sources/feed';
import { parseOptionalSelector } from '../../shared/domain/devices/device-params';

// `?udid=` and/or `?kid=` name the installing device, so a device its owner disabled gets no download URLs.
export const handler = createHandler('source-feed', async ({ pathParams, params }) => ({
  raw: await sourceFeed(pathParams.source_id ?? '', { device: parseOptionalSelector(params) }),
}));
