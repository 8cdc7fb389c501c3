import { createHandler } from '../../shared/http/create-handler';
import { sourceFeed } from '../../shared/domain/sources/feed';

export const handler = createHandler('source-feed', async ({ pathParams }) => ({
  raw: await sourceFeed(pathParams.source_id ?? '', { withholdDownloads: false }),
}));
