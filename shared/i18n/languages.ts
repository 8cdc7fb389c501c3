export const languages = ['zh', 'en', 'zh-TW', 'vi', 'ar', 'es', 'ru'] as const;
export type Lang = (typeof languages)[number];

export const fallbackLanguage: Lang = 'zh';

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}
