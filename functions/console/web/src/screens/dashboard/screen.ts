import type { ScreenMeta } from '../registry';

export const screen: ScreenMeta = {
  id: 'dashboard',
  order: 10,
  title: { zh: '概览', en: 'Dashboard', 'zh-TW': '概覽', vi: 'Tổng quan', ar: 'لوحة المعلومات', es: 'Panel', ru: 'Обзор' },
  icon: 'M3 13h8V3H3zm0 8h8v-6H3zm10 0h8V11h-8zm0-18v6h8V3z',
  load: () => import('./dashboard'),
};
