import { defineMessages } from '../define-messages';

/** A capture ticket handed to the add instead of a UDID. */
export const captureTicketMessages = defineMessages({
  capture_invalid: {
    zh: '采集凭证无效或已过期',
    en: 'The capture ticket is invalid or has expired',
    'zh-TW': '擷取憑證無效或已過期',
    vi: 'Vé xác nhận UDID không hợp lệ hoặc đã hết hạn',
    ar: 'تذكرة الالتقاط غير صالحة أو منتهية الصلاحية',
    es: 'El ticket de captura no es válido o ha caducado',
    ru: 'Билет захвата недействителен или просрочен',
  },
  capture_foreign: {
    zh: '该采集凭证属于其他分销商或其他源，不能在此使用',
    en: "The capture ticket belongs to another reseller's capture or another source and is not valid here",
    'zh-TW': '該擷取憑證屬於其他分銷商或其他源，不能在此使用',
    vi: 'Vé xác nhận UDID thuộc về đại lý khác hoặc nguồn khác và không dùng được ở đây',
    ar: 'تذكرة الالتقاط تخص موزعًا آخر أو مصدرًا آخر ولا تصلح هنا',
    es: 'El ticket de captura pertenece a otro revendedor u otra fuente y no es válido aquí',
    ru: 'Билет захвата принадлежит другому реселлеру или другому источнику и здесь недействителен',
  },
  capture_with_udid: {
    zh: '请只传 udid 或 capture 其中之一',
    en: 'Pass either udid or capture, not both',
    'zh-TW': '請只傳 udid 或 capture 其中之一',
    vi: 'Chỉ truyền udid hoặc capture, không cả hai',
    ar: 'مرّر udid أو capture، وليس كليهما',
    es: 'Indique udid o capture, no ambos',
    ru: 'Передайте либо udid, либо capture, но не оба',
  },
});
