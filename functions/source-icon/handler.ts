import { createPublicHandler } from '../../shared/http/create-public-handler';
import { sourceIconRoute } from '../../shared/routes/feed';
import { BLOCKED_ICON_PNG } from '../../shared/domain/sources/blocked-icon';

// The built-in icon the blocked document's placeholder app points at when the source has no icon of its own.
export const handler = createPublicHandler(sourceIconRoute, async () => ({
  raw: null,
  text: BLOCKED_ICON_PNG.toString('base64'),
  base64: true,
  headers: { 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=86400' },
}));
