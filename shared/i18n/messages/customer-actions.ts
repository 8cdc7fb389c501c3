import { defineMessages } from '../define-messages';

/** Messages of what the customer's page does: the download, redeeming a code, the free re-issue. */
export const customerActionMessages = defineMessages({
  session_required: {
    zh: '此设备尚未验证或验证已过期（30 分钟）。请在设备上重新获取 UDID。',
    en: 'This device is not proven here, or its proof expired (30 minutes). Get your UDID again on the device.',
    'zh-TW': '此裝置尚未驗證或驗證已過期（30 分鐘）。請在裝置上重新取得 UDID。',
    vi: 'Thiết bị này chưa được xác minh hoặc xác minh đã hết hạn (30 phút). Hãy lấy lại UDID trên thiết bị.',
    ar: 'لم يُثبَت هذا الجهاز هنا أو انتهى إثباته (30 دقيقة). احصل على UDID مرة أخرى من الجهاز.',
    es: 'Este dispositivo no está verificado aquí o su verificación caducó (30 minutos). Obtenga su UDID de nuevo en el dispositivo.',
    ru: 'Устройство не подтверждено или подтверждение истекло (30 минут). Получите UDID снова на устройстве.',
  },
  certificate_not_found: {
    zh: '此设备没有这个证书',
    en: 'This device has no such certificate',
    'zh-TW': '此裝置沒有這個憑證',
    vi: 'Thiết bị này không có chứng chỉ đó',
    ar: 'لا توجد هذه الشهادة لهذا الجهاز',
    es: 'Este dispositivo no tiene ese certificado',
    ru: 'У этого устройства нет такого сертификата',
  },
  certificate_not_ready: {
    zh: '此证书当前无法下载（审核中、已撤销或已过期）',
    en: 'This certificate cannot be downloaded now (in review, revoked or expired)',
    'zh-TW': '此憑證目前無法下載（審核中、已撤銷或已過期）',
    vi: 'Hiện không thể tải chứng chỉ này (đang xét duyệt, đã thu hồi hoặc đã hết hạn)',
    ar: 'لا يمكن تنزيل هذه الشهادة الآن (قيد المراجعة أو ملغاة أو منتهية)',
    es: 'Este certificado no se puede descargar ahora (en revisión, revocado o caducado)',
    ru: 'Этот сертификат сейчас нельзя скачать (на проверке, отозван или истёк)',
  },
  certificate_disabled: {
    zh: '此证书已被卖家停用，无法下载',
    en: 'The seller disabled this certificate; it cannot be downloaded',
    'zh-TW': '此憑證已被賣家停用，無法下載',
    vi: 'Người bán đã vô hiệu hóa chứng chỉ này; không thể tải xuống',
    ar: 'عطّل البائع هذه الشهادة؛ لا يمكن تنزيلها',
    es: 'El vendedor desactivó este certificado; no se puede descargar',
    ru: 'Продавец отключил этот сертификат; скачать его нельзя',
  },
  redeem_limited: {
    zh: '尝试次数过多，请 {retry_after} 秒后再试',
    en: 'Too many attempts; try again in {retry_after} seconds',
    'zh-TW': '嘗試次數過多，請 {retry_after} 秒後再試',
    vi: 'Quá nhiều lần thử; hãy thử lại sau {retry_after} giây',
    ar: 'محاولات كثيرة جدًا؛ حاول مرة أخرى بعد {retry_after} ثانية',
    es: 'Demasiados intentos; vuelva a intentarlo en {retry_after} segundos',
    ru: 'Слишком много попыток; повторите через {retry_after} с',
  },
  cp_zip_password: {
    zh: 'certificate.p12 的密码：{password}',
    en: 'Password of certificate.p12: {password}',
    'zh-TW': 'certificate.p12 的密碼：{password}',
    vi: 'Mật khẩu của certificate.p12: {password}',
    ar: 'كلمة مرور certificate.p12: {password}',
    es: 'Contraseña de certificate.p12: {password}',
    ru: 'Пароль certificate.p12: {password}',
  },
});
