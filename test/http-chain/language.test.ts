import { matchLanguage, parseAcceptLanguage, selectLanguage } from '../../shared/i18n/negotiate';

describe('language selection', () => {
  test('X-Lang beats Accept-Language and is matched case-insensitively as an exact tag', () => {
    expect(selectLanguage({ xLang: 'RU', acceptLanguage: 'en' })).toBe('ru');
    expect(selectLanguage({ xLang: 'zh-tw', acceptLanguage: 'en' })).toBe('zh-TW');
  });

  test('an unsupported X-Lang falls through to Accept-Language, then the tenant default, then zh', () => {
    expect(selectLanguage({ xLang: 'fr', acceptLanguage: 'es-MX' })).toBe('es');
    expect(selectLanguage({ xLang: 'fr', tenantDefault: 'vi' })).toBe('vi');
    expect(selectLanguage({ xLang: 'fr', acceptLanguage: 'de, fr;q=0.5', tenantDefault: 'ar' })).toBe('ar');
    expect(selectLanguage({})).toBe('zh');
    expect(selectLanguage({ tenantDefault: 'klingon' })).toBe('zh');
  });

  test('Accept-Language honours q-values and ignores q=0', () => {
    expect(parseAcceptLanguage('en;q=0.3, ru;q=0.9, vi')).toEqual(['vi', 'ru', 'en']);
    expect(selectLanguage({ acceptLanguage: 'en;q=0.3, ru;q=0.9' })).toBe('ru');
    expect(selectLanguage({ acceptLanguage: 'ru;q=0, en;q=0.1' })).toBe('en');
    expect(selectLanguage({ acceptLanguage: 'de;q=1, es;q=0.2' })).toBe('es');
  });

  test.each([
    ['zh-Hant', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-MO', 'zh-TW'],
    ['zh-Hant-TW', 'zh-TW'],
    ['zh-CN', 'zh'],
    ['zh-Hans', 'zh'],
    ['en-GB', 'en'],
    ['ar-EG', 'ar'],
    ['pt-BR', undefined],
  ])('%s maps to %s', (tag, expected) => {
    expect(matchLanguage(tag)).toBe(expected);
  });
});
