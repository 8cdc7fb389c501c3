/**
 * `storefront` of the agent routes: an object (or its JSON text, from a form) of the fields to change. Each
 * field refused names itself in `data.fields` with a message saying what it must be, in the caller's language.
 */
import * as z from 'zod/mini';
import { DomainError } from '../domain/errors';
import type { MessageKey } from '../i18n/localize';
import { contrastRatio, MIN_TEXT_CONTRAST, STOREFRONT_LIMITS, type StorefrontChange } from '../records/storefront';

export type { StorefrontChange };
import { flag } from './event-fields';
import { codePoints, fromJsonText, storedUrl } from './fields';

/** `#rrggbb` (or `rrggbb`, any case), stored lower case with `#`; '' clears it. */
function color(value: string): string | undefined {
  const v = value.trim().replace(/^#/, '');
  if (v === '') return '';
  return /^[0-9a-f]{6}$/i.test(v) ? `#${v.toLowerCase()}` : undefined;
}

/** An https:// URL (the pages' policy loads images over https only, and a shop link should be private); '' clears it. */
function httpsUrl(value: string): string | undefined {
  const v = value.trim();
  if (v === '') return '';
  const url = storedUrl(v);
  return url?.startsWith('https://') && codePoints(url) <= STOREFRONT_LIMITS.url ? url : undefined;
}

/**
 * A host name the agent can point at the service: lower-case labels of letters, digits and hyphens, at
 * least two, no port, no address, no `localhost`; '' clears it.
 */
function hostName(value: string): string | undefined {
  const v = value.trim().toLowerCase().replace(/\.$/, '');
  if (v === '') return '';
  if (v.length > 253 || !v.includes('.')) return undefined;
  const labels = v.split('.');
  if (!labels.every((l) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(l))) return undefined;
  // The last label of a name is never all digits: that is an IPv4 address.
  if (/^\d+$/.test(labels[labels.length - 1]!) || labels[labels.length - 1] === 'localhost') return undefined;
  return v;
}

function textOf(max: number) {
  return (value: string) => {
    const v = value.trim();
    // No control characters but the notice's line breaks.
    // eslint-disable-next-line no-control-regex -- refusing control characters is the point
    return codePoints(v) <= max && !/[\u0000-\u0009\u000b-\u001f\u007f]/.test(v) ? v : undefined;
  };
}

const FIELDS: Record<string, { key: keyof StorefrontChange; read: (value: string) => string | undefined; message: MessageKey }> = {
  name: { key: 'name', read: textOf(STOREFRONT_LIMITS.name), message: 'storefront_name_invalid' },
  logo_url: { key: 'logoUrl', read: httpsUrl, message: 'storefront_logo_invalid' },
  primary_color: { key: 'primaryColor', read: color, message: 'storefront_color_invalid' },
  header_color: { key: 'headerColor', read: color, message: 'storefront_color_invalid' },
  notice: { key: 'notice', read: textOf(STOREFRONT_LIMITS.notice), message: 'storefront_notice_invalid' },
  contact: { key: 'contact', read: textOf(STOREFRONT_LIMITS.contact), message: 'storefront_contact_invalid' },
  buy_url: { key: 'buyUrl', read: httpsUrl, message: 'storefront_buy_url_invalid' },
  domain: { key: 'domain', read: hostName, message: 'storefront_domain_invalid' },
};

const refused = (field: string, message: MessageKey, params: Record<string, string> = {}) => new DomainError('validation', 'invalid_value', { fields: [field], messageKey: message, params });

/** The whole `storefront` value as a zod type (for the route's schema): any object of strings and the flag. */
export const storefrontParam = () => z.pipe(z.transform(fromJsonText), z.record(z.string(), z.unknown()));

/** Reads the change; the first field refused (in the order above) refuses the whole request, nothing written. */
export function parseStorefrontChange(value: Record<string, unknown>): StorefrontChange {
  const unknown = Object.keys(value).filter((k) => !Object.hasOwn(FIELDS, k) && k !== 'verify_domain');
  if (unknown.length) throw new DomainError('validation', 'unknown_field', { fields: unknown });
  const change: StorefrontChange = {};
  for (const [field, rule] of Object.entries(FIELDS)) {
    if (!Object.hasOwn(value, field)) continue;
    const raw = value[field];
    const read = typeof raw === 'string' ? rule.read(raw) : undefined;
    if (read === undefined) throw refused(field, rule.message);
    (change as Record<string, string>)[rule.key] = read;
  }
  if (change.primaryColor) {
    // Buttons carry white text: a colour too light to read it on is refused, with the ratio it has.
    const ratio = contrastRatio(change.primaryColor, '#ffffff');
    if (ratio < MIN_TEXT_CONTRAST) throw refused('primary_color', 'storefront_color_contrast', { ratio: ratio.toFixed(2) });
  }
  if (Object.hasOwn(value, 'verify_domain')) {
    const parsed = flag().safeParse(value.verify_domain);
    if (!parsed.success) throw refused('verify_domain', 'storefront_verify_invalid');
    change.verifyDomain = parsed.data;
  }
  return change;
}
