import { defineMessages } from '../define-messages';

/** Why the download gate refuses a link; clients show `msg`, so every reason reads as advice to the user. */
export const downloadMessages = defineMessages({
  bad_signature: {
    zh: '下载链接无效，请刷新源后重试',
    en: 'This download link is not valid; refresh the source and try again',
    'zh-TW': '下載連結無效，請重新整理源後重試',
    vi: 'Liên kết tải xuống không hợp lệ; hãy làm mới nguồn và thử lại',
    ar: 'رابط التنزيل غير صالح؛ حدّث المصدر وحاول مرة أخرى',
    es: 'Este enlace de descarga no es válido; actualice la fuente e inténtelo de nuevo',
    ru: 'Ссылка для скачивания недействительна; обновите источник и повторите попытку',
  },
  udid_required: {
    zh: '请使用您设备专属的源链接（卖家提供的 dk 链接）添加此源后再下载',
    en: 'Add this source from your device’s own link (the dk link your seller gave you) to download',
    'zh-TW': '請使用您裝置專屬的源連結（賣家提供的 dk 連結）加入此源後再下載',
    vi: 'Hãy thêm nguồn này bằng liên kết riêng của thiết bị bạn (liên kết dk do người bán cung cấp) để tải xuống',
    ar: 'أضف هذا المصدر من الرابط الخاص بجهازك (رابط dk الذي أعطاك إياه البائع) للتنزيل',
    es: 'Añada esta fuente desde el enlace propio de su dispositivo (el enlace dk que le dio su vendedor) para descargar',
    ru: 'Добавьте источник по ссылке вашего устройства (ссылка dk от продавца), чтобы скачивать',
  },
  link_expired: {
    zh: '下载链接已过期，请刷新源后重试',
    en: 'This download link has expired; refresh the source and try again',
    'zh-TW': '下載連結已過期，請重新整理源後重試',
    vi: 'Liên kết tải xuống đã hết hạn; hãy làm mới nguồn và thử lại',
    ar: 'انتهت صلاحية رابط التنزيل؛ حدّث المصدر وحاول مرة أخرى',
    es: 'Este enlace de descarga ha caducado; actualice la fuente e inténtelo de nuevo',
    ru: 'Срок действия ссылки истёк; обновите источник и повторите попытку',
  },
  device_disabled: {
    zh: '此设备已被源所有者停用，无法下载',
    en: 'The source owner disabled this device; it cannot download',
    'zh-TW': '此裝置已被源擁有者停用，無法下載',
    vi: 'Chủ nguồn đã vô hiệu hóa thiết bị này; không thể tải xuống',
    ar: 'عطّل مالك المصدر هذا الجهاز؛ لا يمكنه التنزيل',
    es: 'El propietario de la fuente desactivó este dispositivo; no puede descargar',
    ru: 'Владелец источника отключил это устройство; скачивание недоступно',
  },
  locked: {
    zh: '此应用已锁定，请先解锁源',
    en: 'This app is locked; unlock the source first',
    'zh-TW': '此應用已鎖定，請先解鎖源',
    vi: 'Ứng dụng này bị khóa; hãy mở khóa nguồn trước',
    ar: 'هذا التطبيق مقفل؛ افتح قفل المصدر أولًا',
    es: 'Esta aplicación está bloqueada; desbloquee primero la fuente',
    ru: 'Приложение заблокировано; сначала разблокируйте источник',
  },
  source_suspended: {
    zh: '此源已暂停，所有者续订前无法下载',
    en: 'This source is suspended; downloads return once its owner renews',
    'zh-TW': '此源已暫停，擁有者續訂前無法下載',
    vi: 'Nguồn này đã bị tạm ngưng; có thể tải lại khi chủ nguồn gia hạn',
    ar: 'هذا المصدر معلّق؛ يعود التنزيل بعد أن يجدّد المالك اشتراكه',
    es: 'Esta fuente está suspendida; las descargas vuelven cuando su propietario renueve',
    ru: 'Источник приостановлен; скачивание станет доступно, когда владелец продлит подписку',
  },
});
