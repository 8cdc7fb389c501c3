import type { ScreenMeta } from '../registry';

export const screen: ScreenMeta = {
  id: 'devices',
  order: 20,
  title: { zh: '设备', en: 'Devices', 'zh-TW': '裝置', vi: 'Thiết bị', ar: 'الأجهزة', es: 'Dispositivos', ru: 'Устройства' },
  icon: 'M7 1h10a2 2 0 0 1 2 2v18a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V3a2 2 0 0 1 2-2zm0 3v14h10V4zm5 15.5a1.25 1.25 0 1 0 0 2.5 1.25 1.25 0 0 0 0-2.5z',
  load: () => import('./devices'),
};
