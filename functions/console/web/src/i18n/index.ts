/**
 * The console's languages: the product's seven. Each screen keeps its own strings in its own file
 * (`defineStrings` in screens/<name>/strings.ts), so screens are added without touching a shared catalogue.
 */
import { useEffect, useState } from 'preact/hooks';

export const languages = ['zh', 'en', 'zh-TW', 'vi', 'ar', 'es', 'ru'] as const;
export type Lang = (typeof languages)[number];
export type Translations = Record<Lang, string>;
export type Strings<K extends string> = Record<K, Translations>;

/** Each language named in itself, for the picker. */
export const languageNames: Record<Lang, string> = { zh: '简体中文', en: 'English', 'zh-TW': '繁體中文', vi: 'Tiếng Việt', ar: 'العربية', es: 'Español', ru: 'Русский' };

const RTL: ReadonlySet<Lang> = new Set(['ar']);
const STORAGE_KEY = 'console.lang';

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** A browser language tag to one of ours, as the API negotiates it (zh-Hant, zh-HK, zh-MO → zh-TW). */
export function matchLang(tag: string): Lang | undefined {
  const lower = tag.toLowerCase();
  if (/^zh-(tw|hk|mo|hant)/.test(lower)) return 'zh-TW';
  const base = lower.split('-')[0];
  return languages.find((lang) => lang.toLowerCase() === lower) ?? languages.find((lang) => lang === base);
}

function initialLang(): Lang {
  const fromUrl = new URLSearchParams(location.search).get('lang');
  if (isLang(fromUrl)) return fromUrl;
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (isLang(stored)) return stored;
  } catch {
    // Storage refused (private mode): the browser's languages decide.
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const lang = matchLang(tag);
    if (lang) return lang;
  }
  return 'en';
}

let current: Lang = initialLang();
const listeners = new Set<(lang: Lang) => void>();

export function currentLang(): Lang {
  return current;
}

export function dirOf(lang: Lang): 'rtl' | 'ltr' {
  return RTL.has(lang) ? 'rtl' : 'ltr';
}

function applyToDocument(lang: Lang): void {
  document.documentElement.lang = lang;
  document.documentElement.dir = dirOf(lang);
}
applyToDocument(current);

export function setLang(lang: Lang): void {
  current = lang;
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // Not remembered; still applied.
  }
  applyToDocument(lang);
  for (const listener of listeners) listener(lang);
}

/** Re-renders the calling component when the language changes; answers the current one. */
export function useLang(): Lang {
  const [lang, set] = useState(current);
  useEffect(() => {
    listeners.add(set);
    return () => void listeners.delete(set);
  }, []);
  return lang;
}

/** A screen's strings, checked to have all seven languages. */
export function defineStrings<K extends string>(strings: Strings<K>): Strings<K> {
  return strings;
}

/** `{name}` placeholders filled from `params`. */
export function fill(text: string, params: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The translator of one screen's strings in the current language: `const t = useStrings(strings)`. */
export function useStrings<K extends string>(strings: Strings<K>): (key: K, params?: Record<string, string | number>) => string {
  const lang = useLang();
  return (key, params) => fill(strings[key][lang], params);
}

/** Numbers, money and dates in the UI language's conventions. */
export function formatNumber(value: number, lang: Lang = current): string {
  return new Intl.NumberFormat(lang).format(value);
}

/** Cents as an amount, in the site's currency (ISO 4217) when it is known. */
export function formatCents(cents: number, currency?: string, lang: Lang = current): string {
  try {
    if (currency) return new Intl.NumberFormat(lang, { style: 'currency', currency }).format(cents / 100);
  } catch {
    // An unknown currency code: the plain amount.
  }
  return new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cents / 100);
}

/** A time the API gives as Unix seconds (devices, the ledger) or as an ISO string (sessions); 0 or none is "—". */
export function formatTime(time: number | string | null | undefined, lang: Lang = current): string {
  if (!time) return '—';
  const at = typeof time === 'number' ? new Date(time * 1000) : new Date(time);
  if (Number.isNaN(at.getTime())) return String(time);
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}
