import { defineMessages } from '../define-messages';

/**
 * Device-bound feeds and reports that must come from the device itself. The placeholder texts are read by
 * the person holding the device in their signer app; the rest by source owners.
 */
export const deviceProofMessages = defineMessages({
  proof_required_title: {
    zh: '请使用您设备的专属链接',
    en: 'Open this source from your device link',
    'zh-TW': '請使用您裝置的專屬連結',
    vi: 'Hãy mở nguồn này bằng liên kết của thiết bị',
    ar: 'افتح هذا المصدر من رابط جهازك',
    es: 'Abra esta fuente desde el enlace de su dispositivo',
    ru: 'Откройте источник по ссылке вашего устройства',
  },
  proof_required_notice: {
    zh: '此源只向通过专属链接访问的设备提供应用。请使用源所有者为您的设备提供的链接添加此源。',
    en: 'This source serves its apps only to devices that open it from their own link. Add the source with the link the source owner gave for your device.',
    'zh-TW': '此源只向透過專屬連結存取的裝置提供應用。請使用源擁有者為您的裝置提供的連結新增此源。',
    vi: 'Nguồn này chỉ cung cấp ứng dụng cho thiết bị mở nguồn bằng liên kết riêng của nó. Hãy thêm nguồn bằng liên kết mà chủ nguồn đã cấp cho thiết bị của bạn.',
    ar: 'يقدّم هذا المصدر تطبيقاته فقط للأجهزة التي تفتحه من رابطها الخاص. أضف المصدر بالرابط الذي أعطاه مالك المصدر لجهازك.',
    es: 'Esta fuente solo ofrece sus aplicaciones a los dispositivos que la abren desde su propio enlace. Añada la fuente con el enlace que el propietario le dio para su dispositivo.',
    ru: 'Этот источник выдаёт приложения только устройствам, открывшим его по собственной ссылке. Добавьте источник по ссылке, которую владелец выдал для вашего устройства.',
  },
  report_json_required: {
    zh: '举报必须以 JSON 发送（Content-Type: application/json）',
    en: 'A report must be sent as JSON (Content-Type: application/json)',
    'zh-TW': '檢舉必須以 JSON 傳送（Content-Type: application/json）',
    vi: 'Báo cáo phải được gửi dưới dạng JSON (Content-Type: application/json)',
    ar: 'يجب إرسال البلاغ بصيغة JSON (Content-Type: application/json)',
    es: 'Un informe debe enviarse como JSON (Content-Type: application/json)',
    ru: 'Жалобу нужно отправлять в формате JSON (Content-Type: application/json)',
  },
  device_key_required: {
    zh: '举报只能由设备本身发出：请通过设备专属源链接（含 dk 参数）发送',
    en: 'A report counts only from the device itself: send it to the device’s own feed URL (with its dk parameter)',
    'zh-TW': '檢舉只能由裝置本身發出：請透過裝置專屬源連結（含 dk 參數）傳送',
    vi: 'Báo cáo chỉ được tính khi do chính thiết bị gửi: hãy gửi đến URL nguồn riêng của thiết bị (có tham số dk)',
    ar: 'لا يُحتسب البلاغ إلا من الجهاز نفسه: أرسله إلى رابط المصدر الخاص بالجهاز (مع المعامل dk)',
    es: 'Un informe solo cuenta si lo envía el propio dispositivo: envíelo a la URL de la fuente propia del dispositivo (con su parámetro dk)',
    ru: 'Жалоба учитывается только от самого устройства: отправьте её по собственной ссылке устройства (с параметром dk)',
  },
  source_ceiling_reached: {
    zh: '此源收到的请求过多：每{window}最多 {limit} 次，请在 {retry_after} 秒后重试',
    en: 'This source has had too many of these requests: at most {limit} per {window}, retry in {retry_after} seconds',
    'zh-TW': '此源收到的請求過多：每{window}最多 {limit} 次，請在 {retry_after} 秒後重試',
    vi: 'Nguồn này đã nhận quá nhiều yêu cầu loại này: tối đa {limit} mỗi {window}, hãy thử lại sau {retry_after} giây',
    ar: 'تلقى هذا المصدر عددًا كبيرًا جدًا من هذه الطلبات: بحد أقصى {limit} لكل {window}، أعد المحاولة بعد {retry_after} ثانية',
    es: 'Esta fuente ha recibido demasiadas solicitudes de este tipo: como máximo {limit} por {window}, vuelva a intentarlo en {retry_after} segundos',
    ru: 'Источник получил слишком много таких запросов: не более {limit} за {window}, повторите через {retry_after} с',
  },
});
