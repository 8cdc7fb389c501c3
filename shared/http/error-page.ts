import type { ApiResult, RequestState } from './request-state';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const RTL = new Set(['ar']);

/**
 * A refusal on a route a person opens (envelope `page`): a short HTML page with the localized message, and the
 * machine-readable reason in `X-Error` for scripts. No script, no outside resource.
 */
export function errorPage(state: RequestState, status: number, message: string, reason: string): ApiResult {
  const body = `<!doctype html><html lang="${state.lang}" dir="${RTL.has(state.lang) ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(message)}</title><style>body{font:17px/1.5 -apple-system,system-ui,sans-serif;margin:0;padding:48px 24px;text-align:center;color:#1c1c1e}h1{font-size:20px}</style></head><body><h1>${escapeHtml(message)}</h1><p>${status}</p></body></html>`;
  return {
    statusCode: status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Language': state.lang,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'X-Error': reason,
      ...state.responseHeaders,
    },
    body,
  };
}
