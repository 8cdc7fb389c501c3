import { createPublicHandler } from '../../shared/http/create-public-handler';
import { downloadGateRoute } from '../../shared/routes/feed';
import { useMessages } from '../../shared/i18n/localize';
import { downloadMessages } from '../../shared/i18n/messages/download';
import { protectionMessages } from '../../shared/i18n/messages/protection';
import { checkDownload } from '../../shared/domain/sources/feed-service';
import { suspensionPolicy } from '../../shared/domain/sources/suspended-feed';
import { parseRequest } from './schema';
import { logDownload } from '../../shared/observability/download-log';

// A signed link from the feed: 302 to the build, or a localized 403 whose `data.error` says why.
useMessages(downloadMessages, protectionMessages);

export const handler = createPublicHandler(downloadGateRoute, async (state) => {
  const { location, download } = await checkDownload({ ...parseRequest(state), tenantId: state.tenant.tenantId, nowSeconds: Math.floor(state.now / 1000), suspension: suspensionPolicy(state.tenant.settings) });
  // Counted from the log line, asynchronously: no call, so the gate keeps its round trips.
  logDownload(download);
  return { raw: null, statusCode: 302, text: '', headers: { Location: location, 'Cache-Control': 'no-store' } };
});
