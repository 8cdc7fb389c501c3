import { defineStrings } from '../../i18n';

export const strings = defineStrings({
  title: { zh: '概览', en: 'Dashboard', 'zh-TW': '概覽', vi: 'Tổng quan', ar: 'لوحة المعلومات', es: 'Panel', ru: 'Обзор' },
  balance: { zh: '余额', en: 'Balance', 'zh-TW': '餘額', vi: 'Số dư', ar: 'الرصيد', es: 'Saldo', ru: 'Баланс' },
  prices: { zh: '每台设备价格', en: 'Your price per device', 'zh-TW': '每台裝置價格', vi: 'Giá mỗi thiết bị', ar: 'سعرك لكل جهاز', es: 'Su precio por dispositivo', ru: 'Ваша цена за устройство' },
});
