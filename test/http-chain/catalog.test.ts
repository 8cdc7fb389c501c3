import { catalog } from '../../shared/i18n/catalog';
import { languages } from '../../shared/i18n/languages';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message catalog', () => {
  test.each(Object.keys(catalog))('%s is translated into all seven languages with the same placeholders', (key) => {
    const entry = catalog[key as keyof typeof catalog];
    const english = placeholders(entry.en);
    for (const lang of languages) {
      expect(entry[lang].trim()).not.toBe('');
      expect(placeholders(entry[lang])).toEqual(english);
    }
  });
});
