import { defineMessages } from '../define-messages';

/** What an agent's storefront adds to the customer's pages (the install page, the customer page). */
export const storefrontPageMessages = defineMessages({
  store_buy: {
    zh: '购买',
    en: 'Buy',
    'zh-TW': '購買',
    vi: 'Mua',
    ar: 'شراء',
    es: 'Comprar',
    ru: 'Купить',
  },
  store_contact: {
    zh: '联系方式',
    en: 'Contact',
    'zh-TW': '聯絡方式',
    vi: 'Liên hệ',
    ar: 'التواصل',
    es: 'Contacto',
    ru: 'Контакт',
  },
  store_paused: {
    zh: '本店暂不接受新订单。您的证书仍可在此获取。',
    en: 'This shop is not taking new orders at the moment. Your certificates stay available here.',
    'zh-TW': '本店暫不接受新訂單。您的憑證仍可在此取得。',
    vi: 'Cửa hàng tạm không nhận đơn mới. Chứng chỉ của bạn vẫn có ở đây.',
    ar: 'هذا المتجر لا يقبل طلبات جديدة حاليًا. تبقى شهاداتك متاحة هنا.',
    es: 'Esta tienda no acepta pedidos nuevos por ahora. Sus certificados siguen disponibles aquí.',
    ru: 'Магазин сейчас не принимает новые заказы. Ваши сертификаты по-прежнему доступны здесь.',
  },
  store_not_found: {
    zh: '没有这个店铺',
    en: 'There is no such shop',
    'zh-TW': '沒有這個店鋪',
    vi: 'Không có cửa hàng này',
    ar: 'لا يوجد متجر بهذا الاسم',
    es: 'No existe esa tienda',
    ru: 'Такого магазина нет',
  },
});
