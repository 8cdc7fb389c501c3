import { createHandler } from '../../shared/http/create-handler';
import { checkDownload } from '../../shared/domain/sources/feed-service';
import { parseRequest } from './schema';

// A signed link from the feed: 302 to the build, or a localized 403 whose `data.error` says why.
export const handler = createHandler('download-gate', async (state) => {
  const location = await checkDownload({ ...parseRequest(state), tenantId: state.tenant.tenantId, nowSeconds: Math.floor(state.now / 1000) });
  return { raw: null, statusCode: 302, text: '', headers: { Location: location, 'Cache-Control': 'no-store' } };
});
