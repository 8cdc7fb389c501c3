import type { ScreenMeta } from '../registry';

export const screen: ScreenMeta = {
  id: 'money',
  order: 40,
  title: { zh: '资金', en: 'Money', 'zh-TW': '資金', vi: 'Tiền', ar: 'المال', es: 'Dinero', ru: 'Деньги' },
  icon: 'M2 6h20v12H2zm2 2v8h16V8zm8 1.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5z',
  load: () => import('./money'),
};
