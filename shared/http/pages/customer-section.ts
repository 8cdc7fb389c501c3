/**
 * The customer's part of a page once the device is proven: its certificates with their states, a download
 * per usable certificate, the free re-issue where the warranty covers it, and the activation-code form. Plain
 * HTML forms (no script needed); the page's CSP must allow `form-action 'self'`.
 */
import { bundleName } from '../../domain/self-service/bundle-name';
import type { CustomerCertificate } from '../../domain/self-service/certificates';
import type { Lang } from '../../i18n/languages';
import type { MessageKey, MessageParams } from '../../i18n/localize';

export interface CustomerSectionModel {
  lang: Lang;
  t: (key: MessageKey, params?: MessageParams) => string;
  baseUrl: string;
  /** The source whose page this is; '' on the tenant's page. The forms send it back to return here. */
  sourceId: string;
  /** The mode the page's link named (`?mode=`), sent with a redeem; '' for none. */
  mode: string;
  /** The agent's store on the site's domain (`?store=`) whose page this is; '' for none. The forms send it back. */
  store?: string;
  certificates: readonly CustomerCertificate[];
  /** What the last action did, from the redirect after it. */
  done: 'ready' | 'review' | undefined;
  /** The proven UDID (names a download when the certificate has no device name). */
  udid: string;
}

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The download button fetches the zip asking for `application/zip`: deployed, API Gateway hands a binary body
 * over as bytes only to a request whose first Accept type is a binary media type, and a tapped link's first is
 * text/html. Without script, or on a refusal, the plain link is followed (a refusal page explains).
 */
export const DOWNLOAD_SCRIPT = `document.querySelectorAll('a[data-zip]').forEach(function(a){a.addEventListener('click',function(ev){ev.preventDefault();fetch(a.href,{headers:{Accept:'application/zip'},credentials:'same-origin'}).then(function(r){if(!r.ok){location.href=a.href;return;}return r.blob().then(function(b){var u=URL.createObjectURL(b);var t=document.createElement('a');t.href=u;t.download=a.getAttribute('download');document.body.appendChild(t);t.click();setTimeout(function(){URL.revokeObjectURL(u);t.remove();},1000);});}).catch(function(){location.href=a.href;});});});`;

export const CUSTOMER_STYLE = `
.certs{display:grid;gap:10px}.cert{background:var(--card);border-radius:14px;padding:14px 16px}
.cert h3{margin:0 0 4px;font-size:17px;display:flex;justify-content:space-between;gap:8px;flex-wrap:wrap}
.state{font-size:13px;font-weight:600;border-radius:8px;padding:2px 8px;background:#e5e5ea;color:#1c1c1e}
.state.normal{background:#d1f2dc;color:#0b6b2b}.state.processing{background:#fff1c2;color:#7a5a00}
.state.revoked,.state.ineligible,.state.disabled{background:#ffd9d6;color:#a1150b}.state.expired{background:#e5e5ea;color:#48484a}
.meta{color:var(--muted);font-size:14px;margin:2px 0}.cert .btn{margin-top:10px}
.kid{font:12px/1.4 ui-monospace,Menlo,monospace;direction:ltr;unicode-bidi:embed}
.ok{background:#d1f2dc;color:#0b6b2b;border-radius:12px;padding:12px 14px;margin:0 0 12px}
form{margin:0}input[type=text]{width:100%;font:17px/1.3 ui-monospace,Menlo,monospace;padding:13px;border-radius:12px;border:1px solid #c7c7cc;margin:0 0 10px;text-transform:uppercase;background:var(--bg);color:var(--text)}
.btn.secondary{background:transparent;color:var(--accent);border:1px solid var(--accent)}
`;

const CLASS_NAMES: Record<string, string> = { iphone: 'iPhone', ipad: 'iPad', mac: 'Mac' };

function formatDate(lang: Lang, seconds: number): string {
  return `${new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(seconds * 1000))} UTC`;
}

/** The state the card shows: its owner's disabling outranks the certificate's own state. */
const shownState = (c: CustomerCertificate) => (c.disabled ? 'disabled' : c.state);

function stateLabel(m: CustomerSectionModel, c: CustomerCertificate): string {
  if (c.disabled) return m.t('cp_state_disabled');
  if (c.state === 'processing') return m.t('cp_state_processing', { date: formatDate(m.lang, c.addedAt) });
  return m.t(`cp_state_${c.state}` as MessageKey);
}

function certificateCard(m: CustomerSectionModel, c: CustomerCertificate): string {
  const e = escapeHtml;
  const hidden = (name: string, value: string) => (value ? `<input type="hidden" name="${name}" value="${e(value)}">` : '');
  const lines = [
    `${e(CLASS_NAMES[c.deviceClass] ?? c.deviceClass)} · ${e(m.t('cp_warranty', { tier: c.warranty }))}`,
    e(m.t('cp_added', { date: formatDate(m.lang, c.addedAt) })),
    e(c.membershipExpiresAt ? m.t('cp_membership', { date: formatDate(m.lang, c.membershipExpiresAt) }) : m.t('cp_membership_unknown')),
  ];
  const download = c.downloadable
    ? `<a class="btn" href="${e(`${m.baseUrl}/api/customer/download?kid=${encodeURIComponent(c.kid)}`)}" download="${e(bundleName(c.deviceName, m.udid, c.kid))}" data-zip>${e(m.t('cp_download'))}</a>`
    : '';
  const reissue = c.reissue
    ? `<form method="post" action="${e(`${m.baseUrl}/api/customer/reissue`)}">${hidden('kid', c.kid)}${hidden('source', m.sourceId)}${hidden('store', m.store ?? '')}<button class="btn secondary" type="submit">${e(m.t('cp_reissue'))}</button></form>`
    : '';
  return `<div class="cert" data-kid="${e(c.kid)}" data-state="${shownState(c)}"><h3><span>${e(c.deviceName || CLASS_NAMES[c.deviceClass] || '')}</span><span class="state ${shownState(c)}">${e(stateLabel(m, c))}</span></h3>${lines.map((l) => `<p class="meta">${l}</p>`).join('')}<p class="meta kid">${e(c.kid)}</p>${download}${reissue}</div>`;
}

export function renderCustomerSection(m: CustomerSectionModel): string {
  const e = escapeHtml;
  const done = m.done ? `<p class="ok" id="done">${e(m.t(m.done === 'ready' ? 'cp_done_ready' : 'cp_done_review'))}</p>` : '';
  const list = m.certificates.length ? `<div class="certs">${m.certificates.map((c) => certificateCard(m, c)).join('')}</div>` : `<div class="card"><p class="note" id="no-certificates">${e(m.t('cp_none'))}</p></div>`;
  const hidden = (name: string, value: string) => (value ? `<input type="hidden" name="${name}" value="${e(value)}">` : '');
  const redeem = `<div class="card"><form method="post" action="${e(`${m.baseUrl}/api/customer/redeem`)}" id="redeem">${hidden('source', m.sourceId)}${hidden('store', m.store ?? '')}${hidden('mode', m.mode)}<input type="text" name="code" id="code" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="64" required placeholder="${e(m.t('cp_redeem_placeholder'))}"><button class="btn" type="submit">${e(m.t('cp_redeem_button'))}</button></form></div>`;
  return `<h2>${e(m.t('cp_certificates'))}</h2>${done}${list}<h2>${e(m.t('cp_redeem_title'))}</h2>${redeem}<p class="note" id="proof-note">${e(m.t('cp_proof_note'))}</p>`;
}
