/**
 * An agent's storefront: the brand its customers see on the pages, the UDID profile and the feeds of its
 * sources (shared/domain/agents/storefront-service.ts sets it, storefront-brand.ts reads it for the pages).
 * Stored on the agent's user item (`storefront`), so a page reads it with the user; its own domain, once
 * proven, has an item in `tenantHosts` naming the agent as the host's owner.
 */

/** Where the agent's own domain stands: none claimed, claimed and waiting for its DNS proof, or serving. */
export const DOMAIN_STATES = ['none', 'pending', 'active'] as const;
export type DomainState = (typeof DOMAIN_STATES)[number];

export interface Storefront {
  /** The shop's name on every page and profile; '' = the agent's own name. */
  name: string;
  /** An https:// image URL ('' = none). */
  logoUrl: string;
  /** `#rrggbb`, the buttons' colour (white text on it); '' = the pages' default blue. */
  primaryColor: string;
  /** `#rrggbb`, the band behind the header; '' = none. */
  headerColor: string;
  /** A notice shown under the name (opening hours, news); up to 500 characters. */
  notice: string;
  /** How customers reach the shop (a handle, a phone number); up to 200 characters. */
  contact: string;
  /** An https:// link where customers buy (a shop, a chat); '' = none. */
  buyUrl: string;
  /** The agent's own host name, lower case ('' = none). */
  domain: string;
  domainState: DomainState;
  /** The TXT value that proves the domain (made when it is claimed). */
  domainToken: string;
}

/** A change of a storefront as the route reads it (shared/validation/storefront-fields.ts): the fields sent. */
export interface StorefrontChange {
  name?: string;
  logoUrl?: string;
  primaryColor?: string;
  headerColor?: string;
  notice?: string;
  contact?: string;
  buyUrl?: string;
  domain?: string;
  /** Check the claimed domain's DNS proof now. */
  verifyDomain?: boolean;
}

/** Limits of the storefront's texts, in characters. */
export const STOREFRONT_LIMITS = { name: 64, notice: 500, contact: 200, url: 2048 } as const;

/** The DNS name whose TXT record proves a claimed domain. */
export const domainProofName = (domain: string) => `_appsource-verify.${domain}`;

export interface StorefrontItem {
  name?: string;
  logo_url?: string;
  primary_color?: string;
  header_color?: string;
  notice?: string;
  contact?: string;
  buy_url?: string;
  domain?: string;
  domain_state?: string;
  domain_token?: string;
}

export function storefrontFromItem(item: StorefrontItem | undefined): Storefront {
  const s = item ?? {};
  const state = (DOMAIN_STATES as readonly string[]).includes(s.domain_state ?? '') ? (s.domain_state as DomainState) : 'none';
  return {
    name: s.name ?? '',
    logoUrl: s.logo_url ?? '',
    primaryColor: s.primary_color ?? '',
    headerColor: s.header_color ?? '',
    notice: s.notice ?? '',
    contact: s.contact ?? '',
    buyUrl: s.buy_url ?? '',
    domain: s.domain ?? '',
    domainState: s.domain ? state : 'none',
    domainToken: s.domain_token ?? '',
  };
}

/** What a storefront shows on a customer's page: the fields a page, a profile or a feed draws its brand from. */
export type StorefrontLook = Pick<Storefront, 'name' | 'logoUrl' | 'primaryColor' | 'headerColor' | 'notice' | 'contact' | 'buyUrl'>;

export function storefrontItem(s: Storefront): StorefrontItem {
  return {
    name: s.name,
    logo_url: s.logoUrl,
    primary_color: s.primaryColor,
    header_color: s.headerColor,
    notice: s.notice,
    contact: s.contact,
    buy_url: s.buyUrl,
    domain: s.domain,
    domain_state: s.domainState,
    domain_token: s.domainToken,
  };
}

/** WCAG's relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG's contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** WCAG AA for normal text: what a button's white label needs against its colour. */
export const MIN_TEXT_CONTRAST = 4.5;

/** The text colour that reads best on `background` (every colour reaches 4.5:1 with black or white). */
export const textColorOn = (background: string) => (contrastRatio(background, '#ffffff') >= contrastRatio(background, '#000000') ? '#ffffff' : '#000000');
