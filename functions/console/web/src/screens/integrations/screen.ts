import type { ScreenMeta } from '../registry';

export const screen: ScreenMeta = {
  id: 'integrations',
  order: 60,
  title: { zh: '集成', en: 'Integrations', 'zh-TW': '整合', vi: 'Tích hợp', ar: 'التكاملات', es: 'Integraciones', ru: 'Интеграции' },
  icon: 'M7 7h4v2H7a3 3 0 0 0 0 6h4v2H7A5 5 0 0 1 7 7zm6 0h4a5 5 0 0 1 0 10h-4v-2h4a3 3 0 0 0 0-6h-4zm-5 4h8v2H8z',
  load: () => import('./integrations'),
};
