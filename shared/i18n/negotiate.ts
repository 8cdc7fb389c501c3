import { fallbackLanguage, isLang, languages, type Lang } from './languages';

/** Maps any BCP 47 tag to a supported language, or undefined. */
export function matchLanguage(tag: string): Lang | undefined {
  const lower = tag.trim().toLowerCase();
  if (!lower) return undefined;
  const exact = languages.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const [primary, ...rest] = lower.split(/[-_]/);
  if (primary === 'zh') {
    // Traditional script or a region that writes it → zh-TW; any other Chinese → zh.
    return rest.some((part) => ['hant', 'tw', 'hk', 'mo'].includes(part)) ? 'zh-TW' : 'zh';
  }
  return languages.find((l) => l === primary);
}

interface Weighted {
  tag: string;
  q: number;
  order: number;
}

/** Parses an Accept-Language header, honouring q-values (q=0 means "not this one"). */
export function parseAcceptLanguage(header: string): string[] {
  const entries: Weighted[] = [];
  header.split(',').forEach((part, order) => {
    const [tag, ...params] = part.trim().split(';');
    if (!tag) return;
    let q = 1;
    for (const param of params) {
      const [k, v] = param.trim().split('=');
      if (k?.trim().toLowerCase() === 'q') {
        const parsed = Number(v);
        q = Number.isFinite(parsed) ? parsed : 0;
      }
    }
    if (q > 0) entries.push({ tag: tag.trim(), q, order });
  });
  return entries.sort((a, b) => b.q - a.q || a.order - b.order).map((e) => e.tag);
}

export interface LanguageInputs {
  xLang?: string | undefined;
  acceptLanguage?: string | undefined;
  tenantDefault?: string | undefined;
}

/** X-Lang (exact tag) > Accept-Language (by q) > the tenant's default > the fallback language. */
export function selectLanguage({ xLang, acceptLanguage, tenantDefault }: LanguageInputs): Lang {
  if (xLang) {
    const exact = languages.find((l) => l.toLowerCase() === xLang.trim().toLowerCase());
    if (exact) return exact;
  }
  if (acceptLanguage) {
    for (const tag of parseAcceptLanguage(acceptLanguage)) {
      const match = matchLanguage(tag);
      if (match) return match;
    }
  }
  if (isLang(tenantDefault)) return tenantDefault;
  return fallbackLanguage;
}
