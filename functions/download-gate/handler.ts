import { createHandler } from '../../shared/http/create-handler';
import { downloadGateRoute } from '../../shared/routes';
import { queryValues } from '../../shared/http/request-url';
import { checkDownload } from '../../shared/domain/sources/feed-service';
import { useMessages } from '../../shared/i18n/localize';
import { downloadMessages } from '../../shared/i18n/messages/download';
import { protectionMessages } from '../../shared/i18n/messages/protection';

// A signed link from the feed: 302 to the build, or a localized 403 whose `data.error` says why.
useMessages(downloadMessages, protectionMessages);

export const handler = createHandler(downloadGateRoute, async ({ pathParams, event, tenant, now }) => {
  const location = await checkDownload({
    sourceId: pathParams.source_id ?? '',
    tenantId: tenant.tenantId,
    appId: pathParams.app_id ?? '',
    udid: queryValues(event, 'udid'),
    exp: queryValues(event, 'exp'),
    sig: queryValues(event, 'sig'),
    nowSeconds: Math.floor(now / 1000),
  });
  return { raw: null, statusCode: 302, text: '', headers: { Location: location, 'Cache-Control': 'no-store' } };
});
