import { randomBytes } from 'node:crypto';
import { certificatesOfDevice } from '../../shared/domain/self-service/certificates';
import { CUSTOMER_PAGE_PATH } from '../../shared/domain/self-service/pages';
import { createPublicHandler } from '../../shared/http/create-public-handler';
import { currentDevice, enterWithTicket } from '../../shared/http/customer-session';
import { renderCustomerSection } from '../../shared/http/pages/customer-section';
import { requestBaseUrl } from '../../shared/http/request-url';
import { localize, useMessages } from '../../shared/i18n/localize';
import { customerPageMessages } from '../../shared/i18n/messages/customer-page';
import { udidCaptureMessages } from '../../shared/i18n/messages/udid-capture';
import { tokenMessages } from '../../shared/i18n/messages/token';
import { customerPageRoute } from '../../shared/routes/customer';
import { pageAnswer, renderInstallPage } from '../../shared/http/pages/install-page';
import { agentBrand, hostBrand, type PageBrand } from '../../shared/domain/agents/storefront-brand';
import { DomainError } from '../../shared/domain/errors';
import type { RequestState } from '../../shared/http/request-state';
import { storeLook } from '../../shared/http/pages/store-look';
import { storefrontPageMessages } from '../../shared/i18n/messages/storefront-page';
import { parseRequest } from './schema';

useMessages(udidCaptureMessages);
useMessages(customerPageMessages, tokenMessages, storefrontPageMessages);

/**
 * The agent whose storefront the page is: the agent of the storefront domain it was opened on, else the
 * agent `?store=` names (an agent of this tenant; any other id is no shop). Undefined: the tenant's own page.
 */
async function storeOf(state: RequestState, store: string | undefined): Promise<{ brand: PageBrand; viaPath: boolean } | undefined> {
  const onDomain = await hostBrand(state.tenant);
  if (onDomain) return { brand: onDomain, viaPath: false };
  if (store === undefined) return undefined;
  const brand = await agentBrand(store, state.tenant.tenantId);
  if (!brand) throw new DomainError('source_not_found', 'store_not_found');
  return { brand, viaPath: true };
}

/** GET /api/customer: the tenant's customer page (the install page's look, without a source), or an agent's storefront. */
export const handler = createPublicHandler(customerPageRoute, async (state) => {
  const { pageTicket, done, mode, store: storeParam } = parseRequest(state);
  const store = await storeOf(state, storeParam);
  const base = requestBaseUrl(state.event, state.tenant);
  const now = Math.floor(state.now / 1000);
  const pageUrl = new URL(`${base}${CUSTOMER_PAGE_PATH}`);
  if (store?.viaPath) pageUrl.searchParams.set('store', store.brand.agentId);
  const page = pageUrl.toString();
  const withMode = (url: string) => (mode ? `${url}${url.includes('?') ? '&' : '?'}mode=${mode}` : url);
  const t = (key: Parameters<typeof localize>[1], params?: Parameters<typeof localize>[2]) => localize(state.lang, key, params);
  const entered = pageTicket !== undefined ? await enterWithTicket(state, pageTicket, withMode(page)) : undefined;
  if (entered && 'redirect' in entered) return entered.redirect;
  const device = entered ? undefined : await currentDevice(state);
  const customerSection = device
    ? renderCustomerSection({ lang: state.lang, t, baseUrl: base, sourceId: '', store: store?.viaPath ? store.brand.agentId : '', mode: mode ?? '', certificates: await certificatesOfDevice(device, state.tenant, now), done, udid: device.udid })
    : undefined;
  const nonce = randomBytes(16).toString('base64');
  const html = renderInstallPage({
    ...(store ? { store: storeLook(store.brand, state.lang) } : {}),
    lang: state.lang,
    t,
    nonce,
    sourceName: store ? store.brand.name : state.tenant.name || t('cp_page_title'),
    iconUrl: '',
    announcement: '',
    // A storefront's profile names the agent (and lists its captures for it), never the site.
    profileUrl: `${base}/api/udid/profile?return=${encodeURIComponent(page)}${store ? `&user=${encodeURIComponent(store.brand.agentId)}` : ''}`,
    captured: device ? { udid: device.udid, feedUrl: '', links: [] } : undefined,
    ...(customerSection ? { customerSection } : {}),
    ...(entered ? { notice: t(entered.notice) } : {}),
  });
  return pageAnswer(html, nonce, customerSection !== undefined);
});
