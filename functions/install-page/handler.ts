import { randomBytes } from 'node:crypto';
import { sourceOnTenant } from '../../shared/domain/sources/source-lookup';
import { ticketPublicJwk } from '../../shared/domain/udid-capture/capture-keys';
import { addSourceLinks } from '../../shared/domain/udid-capture/add-source-links';
import { deviceFeedUrl } from '../../shared/domain/sources/device-keys';
import { verifyTicket } from '../../shared/domain/udid-capture/ticket';
import { createPublicHandler } from '../../shared/http/create-public-handler';
import { requestBaseUrl } from '../../shared/http/request-url';
import { localize, useMessages } from '../../shared/i18n/localize';
import { udidCaptureMessages } from '../../shared/i18n/messages/udid-capture';
import { installPageRoute } from '../../shared/routes';
import { contentSecurityPolicy, renderInstallPage } from './page';
import { parseRequest } from './schema';

useMessages(udidCaptureMessages);

/** GET /api/rjy/{source_id}/install[?ticket=…]: "Get my UDID", then the UDID and one-tap add-source links. */
export const handler = createPublicHandler(installPageRoute, async (state) => {
  const { sourceId, ticket } = parseRequest(state);
  const source = await sourceOnTenant(sourceId, state.tenant.tenantId);
  const base = requestBaseUrl(state.event, state.tenant);
  const now = Math.floor(state.now / 1000);
  const claims = ticket ? await verifyTicket(await ticketPublicJwk(state.tenant.tenantId), ticket, state.tenant.tenantId, now) : undefined;
  // The ticket proves the UDID: its feed URL is the device-bound one (an opaque device key, made on first use).
  const feedUrl = claims ? await deviceFeedUrl(source, claims.udid, base, now) : '';
  const nonce = randomBytes(16).toString('base64');
  const html = renderInstallPage({
    lang: state.lang,
    t: (key) => localize(state.lang, key),
    nonce,
    sourceName: source.name,
    iconUrl: /^https:\/\//.test(source.source_icon ?? '') ? source.source_icon : '',
    announcement: source.message ?? '',
    profileUrl: `${base}/api/rjy/${source.source_id}/udid.mobileconfig`,
    captured: claims ? { udid: claims.udid, feedUrl, links: addSourceLinks(feedUrl) } : undefined,
    expired: ticket !== undefined && !claims,
  });
  return {
    raw: null,
    text: html,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': contentSecurityPolicy(nonce),
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    },
  };
});
