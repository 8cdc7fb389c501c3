import type { ScreenMeta } from '../registry';

export const screen: ScreenMeta = {
  id: 'apple-accounts',
  order: 70,
  title: { zh: 'Apple 账号', en: 'Apple accounts', 'zh-TW': 'Apple 帳號', vi: 'Tài khoản Apple', ar: 'حسابات Apple', es: 'Cuentas de Apple', ru: 'Аккаунты Apple' },
  icon: 'M16.4 12.6c0-2.4 2-3.5 2-3.6-1.1-1.6-2.8-1.8-3.4-1.8-1.4-.1-2.8.9-3.5.9s-1.8-.9-3-.8C7 7.3 5.6 8.2 4.8 9.6c-1.6 2.8-.4 6.9 1.1 9.1.8 1.1 1.7 2.3 2.9 2.3 1.1 0 1.6-.7 3-.7s1.8.7 3 .7 2-1.1 2.8-2.2c.9-1.3 1.2-2.5 1.3-2.6-.1 0-2.5-1-2.5-3.6zM14.1 5.6c.6-.8 1.1-1.8.9-2.9-.9 0-2 .6-2.7 1.4-.6.7-1.1 1.7-1 2.8 1.1.1 2.1-.5 2.8-1.3z',
  load: () => import('./apple-accounts'),
};
