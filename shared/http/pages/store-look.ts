import type { PageBrand } from '../../domain/agents/storefront-brand';
import type { Lang } from '../../i18n/languages';
import { localize } from '../../i18n/localize';
import type { StoreLook } from './install-page';

/** An agent's brand as a page shows it, its labels in the customer's language. */
export function storeLook(brand: PageBrand, lang: Lang): StoreLook {
  const { agentId: _agentId, ...look } = brand;
  return { ...look, labels: { buy: localize(lang, 'store_buy'), contact: localize(lang, 'store_contact'), paused: localize(lang, 'store_paused') } };
}
