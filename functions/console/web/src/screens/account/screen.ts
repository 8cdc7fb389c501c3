import type { ScreenMeta } from '../registry';

export const screen: ScreenMeta = {
  id: 'account',
  order: 90,
  title: { zh: '账户', en: 'Account', 'zh-TW': '帳戶', vi: 'Tài khoản', ar: 'الحساب', es: 'Cuenta', ru: 'Аккаунт' },
  icon: 'M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-9 2.2-9 5.5V22h18v-2.5c0-3.3-4.6-5.5-9-5.5z',
  load: () => import('./account'),
};
