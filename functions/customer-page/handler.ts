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
import { parseRequest } from './schema';

useMessages(udidCaptureMessages);
useMessages(customerPageMessages, tokenMessages);

/** GET /api/customer: the tenant's customer page (the install page's look, without a source). */
export const handler = createPublicHandler(customerPageRoute, async (state) => {
  const { pageTicket, done, mode } = parseRequest(state);
  const base = requestBaseUrl(state.event, state.tenant);
  const now = Math.floor(state.now / 1000);
  const page = `${base}${CUSTOMER_PAGE_PATH}`;
  const t = (key: Parameters<typeof localize>[1], params?: Parameters<typeof localize>[2]) => localize(state.lang, key, params);
  const entered = pageTicket !== undefined ? await enterWithTicket(state, pageTicket, `${page}${mode ? `?mode=${mode}` : ''}`) : undefined;
  if (entered && 'redirect' in entered) return entered.redirect;
  const device = entered ? undefined : await currentDevice(state);
  const customerSection = device
    ? renderCustomerSection({ lang: state.lang, t, baseUrl: base, sourceId: '', mode: mode ?? '', certificates: await certificatesOfDevice(device, state.tenant, now), done, udid: device.udid })
    : undefined;
  const nonce = randomBytes(16).toString('base64');
  const html = renderInstallPage({
    lang: state.lang,
    t,
    nonce,
    sourceName: state.tenant.name || t('cp_page_title'),
    iconUrl: '',
    announcement: '',
    profileUrl: `${base}/api/udid/profile?return=${encodeURIComponent(page)}`,
    captured: device ? { udid: device.udid, feedUrl: '', links: [] } : undefined,
    ...(customerSection ? { customerSection } : {}),
    ...(entered ? { notice: t(entered.notice) } : {}),
  });
  return pageAnswer(html, nonce, customerSection !== undefined);
});
