/**
 * The customer's install page: mobile first, no outside script or font, one inline script and style
 * allowed by a per-answer nonce (the CSP forbids everything else).
 */
import type { Lang } from '../../i18n/languages';
import type { MessageKey } from '../../i18n/localize';
import { CUSTOMER_STYLE, DOWNLOAD_SCRIPT } from './customer-section';
import { textColorOn, type StorefrontLook } from '../../records/storefront';

export interface InstallPageModel {
  lang: Lang;
  t: (key: MessageKey) => string;
  nonce: string;
  sourceName: string;
  iconUrl: string;
  announcement: string;
  profileUrl: string;
  /** The session's device; `proveAgainUrl` when this page has no feed URL for it (proven elsewhere, or revoked since). */
  captured: { udid: string; feedUrl: string; links: { app: string; href: string }[]; proveAgainUrl?: string | undefined } | undefined;
  /** The customer's certificates and actions (shared/http/pages/customer-section.ts), once the device is proven. */
  customerSection?: string;
  /** Why a one-time ticket opened nothing (spent, expired): shown instead of the device. */
  notice?: string;
  /** An agent's storefront: its look, notice, contact and buy link around the page (its name is `sourceName`'s place). */
  store?: StoreLook;
}

/** What an agent's storefront puts on a page, its labels already in the customer's language. */
export interface StoreLook extends StorefrontLook {
  /** The agent is suspended: no buy link, and `pausedText` instead. */
  paused: boolean;
  labels: { buy: string; contact: string; paused: string };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function contentSecurityPolicy(nonce: string, forms = false): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src https: 'self'",
    "base-uri 'none'",
    // The customer's forms (redeem a code, re-issue) post to this API; nothing else may be a form target.
    forms ? "form-action 'self'" : "form-action 'none'",
    // The download button's fetch of the zip (customer-section.ts).
    forms ? "connect-src 'self'" : "connect-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The answer carrying a rendered page: never cached, no referrer, and the policy above for its nonce. */
export function pageAnswer(html: string, nonce: string, forms: boolean) {
  return {
    raw: null,
    text: html,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': contentSecurityPolicy(nonce, forms),
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    },
  };
}

const STYLE = `
:root{color-scheme:light dark;--bg:#f2f2f7;--card:#fff;--text:#1c1c1e;--muted:#6c6c70;--accent:#007aff}
@media (prefers-color-scheme:dark){:root{--bg:#000;--card:#1c1c1e;--text:#f2f2f7;--muted:#98989f}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--text);font:17px/1.45 -apple-system,system-ui,"Segoe UI",Roboto,sans-serif}
main{max-width:480px;margin:0 auto;padding:24px 16px 40px}
header{display:flex;align-items:center;gap:14px;margin-bottom:16px}
header img{width:60px;height:60px;border-radius:14px;flex:none;background:var(--card)}
h1{font-size:24px;margin:0}h2{font-size:15px;font-weight:600;color:var(--muted);text-transform:uppercase;margin:24px 4px 8px}
.card{background:var(--card);border-radius:14px;padding:16px}
.note{color:var(--muted);white-space:pre-line;margin:0 0 12px}
.btn{display:block;width:100%;text-align:center;padding:15px;border-radius:12px;border:0;background:var(--accent);color:#fff;font:600 17px/1.2 inherit;text-decoration:none}
.udid{font:600 16px/1.4 ui-monospace,Menlo,monospace;word-break:break-all;direction:ltr;unicode-bidi:embed;margin:0 0 12px}
.apps{display:grid;grid-template-columns:1fr 1fr;gap:10px}.apps .btn{padding:13px 8px}
.url{font:13px/1.4 ui-monospace,Menlo,monospace;word-break:break-all;direction:ltr;unicode-bidi:embed;color:var(--muted);margin:0}
.warn{color:#d70015}
`;

const STORE_STYLE = `
.store-band{border-radius:14px;padding:14px;margin:-8px -4px 16px}
.store-band header{margin:0}
.store-meta{display:grid;gap:10px;margin:0 0 16px}
.store-meta .note{margin:0}
.store-contact{margin:0;color:var(--muted)}
`;

/** The storefront's colours as page variables: its buttons' colour, and its header band with readable text. */
function storeStyle(store: StoreLook): string {
  const rules: string[] = [];
  if (store.primaryColor) rules.push(`:root{--accent:${store.primaryColor}}`);
  if (store.headerColor) rules.push(`.store-band{background:${store.headerColor};color:${textColorOn(store.headerColor)}}`);
  return STORE_STYLE + rules.join('');
}

function storeHead(store: StoreLook, iconUrl: string, e: (t: string) => string): string {
  const logo = store.logoUrl || iconUrl;
  const head = `<header>${logo ? `<img src="${e(logo)}" alt="">` : ''}<h1>${e(store.name)}</h1></header>`;
  const meta = [
    store.paused ? `<p class="note warn" id="store-paused">${e(store.labels.paused)}</p>` : '',
    store.notice ? `<p class="note" id="store-notice">${e(store.notice)}</p>` : '',
    store.contact ? `<p class="store-contact" id="store-contact">${e(store.labels.contact)}: <bdi>${e(store.contact)}</bdi></p>` : '',
    store.buyUrl && !store.paused ? `<a class="btn" id="store-buy" href="${e(store.buyUrl)}" rel="noopener">${e(store.labels.buy)}</a>` : '',
  ].join('');
  return `<div class="store-band${store.headerColor ? '' : ' plain'}">${head}</div>${meta ? `<div class="store-meta">${meta}</div>` : ''}`;
}

const SCRIPT = `document.getElementById('copy').addEventListener('click',function(){var b=this;navigator.clipboard.writeText(b.dataset.udid).then(function(){b.textContent=b.dataset.done;});});`;

export function renderInstallPage(m: InstallPageModel): string {
  const e = escapeHtml;
  const title = m.store ? m.store.name : m.sourceName;
  const announcement = m.announcement ? `<p class="note">${e(m.announcement)}</p>` : '';
  const head = m.store ? `${storeHead(m.store, m.iconUrl, e)}${announcement}` : `<header>${m.iconUrl ? `<img src="${e(m.iconUrl)}" alt="">` : ''}<h1>${e(m.sourceName)}</h1></header>${announcement}`;
  let body: string;
  if (m.captured) {
    const c = m.captured;
    body = `<h2>${e(m.t('udid_page_your_udid'))}</h2><div class="card"><p class="udid" id="udid">${e(c.udid)}</p><button class="btn" id="copy" type="button" data-udid="${e(c.udid)}" data-done="${e(m.t('udid_page_copied'))}">${e(m.t('udid_page_copy'))}</button></div>
${c.feedUrl ? `<h2>${e(m.t('udid_page_add_source'))}</h2><div class="card apps">${c.links.map((l) => `<a class="btn" href="${e(l.href)}">${e(l.app)}</a>`).join('')}</div>
<h2>${e(m.t('udid_page_feed_url'))}</h2><div class="card"><p class="url" id="feed-url">${e(c.feedUrl)}</p></div>` : ''}${
      c.proveAgainUrl
        ? `<h2>${e(m.t('udid_page_add_source'))}</h2><div class="card">${m.notice ? `<p class="note warn" id="notice">${e(m.notice)}</p>` : ''}<p class="note">${e(m.t('udid_page_steps'))}</p><a class="btn" id="get-udid" href="${e(c.proveAgainUrl)}">${e(m.t('udid_page_button'))}</a></div>`
        : ''
    }${m.customerSection ?? ''}`;
  } else {
    body = `<h2>${e(m.t('udid_page_title'))}</h2><div class="card">${m.notice ? `<p class="note warn" id="notice">${e(m.notice)}</p>` : ''}<p class="note">${e(m.t('udid_page_steps'))}</p><a class="btn" id="get-udid" href="${e(m.profileUrl)}">${e(m.t('udid_page_button'))}</a></div>`;
  }
  return `<!doctype html><html lang="${m.lang}" dir="${m.lang === 'ar' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1,viewport-fit=cover"><title>${e(title)} · ${e(m.t('udid_page_title'))}</title><style nonce="${m.nonce}">${STYLE}${m.customerSection ? CUSTOMER_STYLE : ''}${m.store ? storeStyle(m.store) : ''}</style></head><body><main>${head}${body}</main>${m.captured ? `<script nonce="${m.nonce}">${SCRIPT}${m.customerSection ? DOWNLOAD_SCRIPT : ''}</script>` : ''}</body></html>`;
}
