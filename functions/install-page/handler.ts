import { randomBytes } from 'node:crypto';
import { sourceOnTenant } from '../../shared/domain/sources/source-lookup';
import { addSourceLinks } from '../../shared/domain/udid-capture/add-source-links';
import { provenDeviceFeedUrl } from '../../shared/domain/sources/device-keys';
import { udidKey } from '../../shared/records/device';
import { certificatesOfDevice } from '../../shared/domain/self-service/certificates';
import { installPagePath } from '../../shared/domain/udid-capture/install-page-path';
import { createPublicHandler } from '../../shared/http/create-public-handler';
import { currentDevice, enterWithTicket } from '../../shared/http/customer-session';
import { renderCustomerSection } from '../../shared/http/pages/customer-section';
import { requestBaseUrl } from '../../shared/http/request-url';
import { localize, useMessages } from '../../shared/i18n/localize';
import { customerPageMessages } from '../../shared/i18n/messages/customer-page';
import { udidCaptureMessages } from '../../shared/i18n/messages/udid-capture';
import { tokenMessages } from '../../shared/i18n/messages/token';
import { installPageRoute } from '../../shared/routes/udid-capture';
import { pageAnswer, renderInstallPage } from '../../shared/http/pages/install-page';
import { agentBrand } from '../../shared/domain/agents/storefront-brand';
import { storefrontPageMessages } from '../../shared/i18n/messages/storefront-page';
import { storeLook } from '../../shared/http/pages/store-look';
import { parseRequest } from './schema';

useMessages(udidCaptureMessages);
useMessages(customerPageMessages, tokenMessages, storefrontPageMessages);

/**
 * GET /api/rjy/{source_id}/install: "Get my UDID", then the UDID and one-tap add-source links. With the
 * capture's one-time ticket (`st`) the first open trades it for the customer's session and comes back without
 * it; only a session shows anything of the device: its UDID, its certificates, downloads, re-issues, the code
 * form, and — when the session's capture was made for this source and the owner has not revoked the device's
 * URL since — its device-bound feed URL. A capture ticket (`ticket`) shows nothing.
 */
export const handler = createPublicHandler(installPageRoute, async (state) => {
  const { sourceId, pageTicket, done, mode } = parseRequest(state);
  const source = await sourceOnTenant(sourceId, state.tenant.tenantId, state.tenant.storefrontOwner);
  const base = requestBaseUrl(state.event, state.tenant);
  const now = Math.floor(state.now / 1000);
  const t = (key: Parameters<typeof localize>[1], params?: Parameters<typeof localize>[2]) => localize(state.lang, key, params);
  const entered = pageTicket !== undefined ? await enterWithTicket(state, pageTicket, `${base}${installPagePath(source.source_id)}${mode ? `?mode=${mode}` : ''}`) : undefined;
  if (entered && 'redirect' in entered) return entered.redirect;
  // A spent or expired one-time ticket opens nothing, whatever else its URL carries.
  const device = entered ? undefined : await currentDevice(state);
  // The device-bound feed URL (an opaque device key, made on first use) for a session proven on this source.
  const ownSource = device !== undefined && device.sourceId === source.source_id;
  const feedUrl = device && ownSource ? await provenDeviceFeedUrl(source, udidKey(device.udid), base, now, device.provenAt) : undefined;
  const profileUrl = `${base}/api/rjy/${source.source_id}/udid.mobileconfig`;
  const customerSection = device
    ? renderCustomerSection({ lang: state.lang, t, baseUrl: base, sourceId: source.source_id, mode: mode ?? '', certificates: await certificatesOfDevice(device, state.tenant, now), done, udid: device.udid })
    : undefined;
  // An agent's source is sold under the agent's storefront, whatever host it is read on.
  const brand = await agentBrand(source.owner_id, state.tenant.tenantId);
  const nonce = randomBytes(16).toString('base64');
  const html = renderInstallPage({
    ...(brand ? { store: storeLook(brand, state.lang) } : {}),
    lang: state.lang,
    t,
    nonce,
    sourceName: source.name,
    iconUrl: /^https:\/\//.test(source.source_icon ?? '') ? source.source_icon : '',
    announcement: source.message ?? '',
    profileUrl,
    // Proven elsewhere (another source's page, the tenant's page), or revoked since: capture here again for a URL.
    captured: device ? { udid: device.udid, feedUrl: feedUrl ?? '', links: feedUrl ? addSourceLinks(feedUrl) : [], proveAgainUrl: feedUrl ? undefined : profileUrl } : undefined,
    ...(customerSection ? { customerSection } : {}),
    ...(entered ? { notice: t(entered.notice) } : ownSource && !feedUrl ? { notice: t('udid_page_url_revoked') } : {}),
  });
  return pageAnswer(html, nonce, customerSection !== undefined);
});
