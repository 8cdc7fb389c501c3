import type { ScreenMeta } from '../registry';

export const screen: ScreenMeta = {
  id: 'sources',
  order: 30,
  title: { zh: '源与应用', en: 'Sources and apps', 'zh-TW': '源與應用', vi: 'Nguồn và ứng dụng', ar: 'المصادر والتطبيقات', es: 'Fuentes y apps', ru: 'Источники и приложения' },
  icon: 'M4 4h7v7H4zm9 0h7v7h-7zM4 13h7v7H4zm9 3h7v2h-7zm0-3h7v2h-7zm0 6h7v2h-7z',
  load: () => import('./sources'),
};
