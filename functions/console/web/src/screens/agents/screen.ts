import type { ScreenMeta } from '../registry';

export const screen: ScreenMeta = {
  id: 'agents',
  order: 80,
  title: { zh: '代理', en: 'Agents', 'zh-TW': '代理', vi: 'Đại lý', ar: 'الوكلاء', es: 'Agentes', ru: 'Агенты' },
  icon: 'M9 11a4 4 0 1 1 0-8 4 4 0 0 1 0 8zm0 2c3.3 0 7 1.6 7 4v3H2v-3c0-2.4 3.7-4 7-4zm8-2a3 3 0 1 0 0-6v6zm1.5 2.2c1.9.6 3.5 1.8 3.5 3.8v3h-4v-3c0-1.5-.6-2.8-1.6-3.7z',
  load: () => import('./agents'),
};
