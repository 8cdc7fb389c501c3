import { createPublicHandler } from '../../shared/http/create-public-handler';
import { localize, useMessages } from '../../shared/i18n/localize';
import { consoleMessages } from '../../shared/i18n/messages/console';
import { consoleRoute } from '../../shared/routes/console';
import { consoleFiles } from './files';

useMessages(consoleMessages);

/**
 * No inline script or style anywhere: the app's own files only, its API calls to this origin, the QR codes
 * and icons as SVG or data URLs.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONSOLE_CSP,
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
};

/** GET /console and /console/{proxy+}: the web app's page, and its files by path. */
export const handler = createPublicHandler(consoleRoute, async (state) => {
  const rest = state.event.pathParameters?.proxy ?? '';
  // Any path that is not a file (the app routes by the URL's #fragment, but a bookmark may hold a path) opens the app.
  const path = rest === '' || !rest.includes('.') ? 'index.html' : rest;
  const file = consoleFiles().get(path);
  if (!file) {
    return {
      raw: null,
      statusCode: 404,
      text: localize(state.lang, 'console_file_not_found'),
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Error': 'console_file_not_found', ...SECURITY_HEADERS },
    };
  }
  return { raw: null, text: file.body, headers: { 'Content-Type': file.contentType, 'Cache-Control': file.cacheControl, ...SECURITY_HEADERS } };
});
