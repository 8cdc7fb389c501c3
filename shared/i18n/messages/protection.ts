import { defineMessages } from '../define-messages';

/**
 * Locked apps, unlock codes and the block list. Customers' signer apps show `msg` as it is, so these read as
 * advice to the person holding the device.
 */
export const protectionMessages = defineMessages({
  unlocked_until: {
    zh: '解锁成功，有效期至 {until}',
    en: 'Unlocked until {until}',
    'zh-TW': '解鎖成功，有效期至 {until}',
    vi: 'Đã mở khóa đến {until}',
    ar: 'تم فتح القفل حتى {until}',
    es: 'Desbloqueado hasta {until}',
    ru: 'Разблокировано до {until}',
  },
  unlock_code_used: {
    zh: '此解锁码已被其他设备使用',
    en: 'This unlock code has already been used by another device',
    'zh-TW': '此解鎖碼已被其他裝置使用',
    vi: 'Mã mở khóa này đã được một thiết bị khác sử dụng',
    ar: 'استُخدم رمز فتح القفل هذا بالفعل على جهاز آخر',
    es: 'Este código de desbloqueo ya lo ha usado otro dispositivo',
    ru: 'Этот код разблокировки уже использован другим устройством',
  },
  unlock_code_unknown: {
    zh: '解锁码无效，请检查后重试',
    en: 'This unlock code is not valid; check it and try again',
    'zh-TW': '解鎖碼無效，請檢查後重試',
    vi: 'Mã mở khóa không hợp lệ; hãy kiểm tra và thử lại',
    ar: 'رمز فتح القفل غير صالح؛ تحقق منه وحاول مرة أخرى',
    es: 'Este código de desbloqueo no es válido; revíselo e inténtelo de nuevo',
    ru: 'Код разблокировки недействителен; проверьте его и повторите попытку',
  },
  blocked: {
    zh: '此设备已被源所有者拉黑，无法下载',
    en: 'The source owner blocked this device; it cannot download',
    'zh-TW': '此裝置已被源擁有者封鎖，無法下載',
    vi: 'Chủ nguồn đã chặn thiết bị này; không thể tải xuống',
    ar: 'حظر مالك المصدر هذا الجهاز؛ لا يمكنه التنزيل',
    es: 'El propietario de la fuente bloqueó este dispositivo; no puede descargar',
    ru: 'Владелец источника заблокировал это устройство; скачивание недоступно',
  },
  blocked_title: {
    zh: '设备已被源所有者拉黑',
    en: 'Blocked by the source owner',
    'zh-TW': '裝置已被源擁有者封鎖',
    vi: 'Bị chủ nguồn chặn',
    ar: 'محظور من مالك المصدر',
    es: 'Bloqueado por el propietario de la fuente',
    ru: 'Заблокировано владельцем источника',
  },
  blocked_notice: {
    zh: '源所有者已将此设备拉黑：此源的应用不再向此设备提供。如有疑问请联系源所有者。',
    en: 'The source owner blocked this device: the apps of this source are no longer available to it. Contact the source owner if you think this is a mistake.',
    'zh-TW': '源擁有者已封鎖此裝置：此源的應用不再提供給此裝置。如有疑問請聯絡源擁有者。',
    vi: 'Chủ nguồn đã chặn thiết bị này: các ứng dụng của nguồn không còn khả dụng cho thiết bị. Hãy liên hệ chủ nguồn nếu bạn cho rằng đây là nhầm lẫn.',
    ar: 'حظر مالك المصدر هذا الجهاز: لم تعد تطبيقات هذا المصدر متاحة له. تواصل مع مالك المصدر إذا كنت تعتقد أن هذا خطأ.',
    es: 'El propietario de la fuente bloqueó este dispositivo: las aplicaciones de esta fuente ya no están disponibles para él. Contacte con el propietario si cree que es un error.',
    ru: 'Владелец источника заблокировал это устройство: приложения этого источника для него больше недоступны. Свяжитесь с владельцем, если считаете это ошибкой.',
  },
});
