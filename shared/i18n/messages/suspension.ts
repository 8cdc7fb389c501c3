import { defineMessages } from '../define-messages';

/** The suspended source as its feed shows it to a customer's signer app (the download gate's refusal is in download.ts). */
export const suspensionMessages = defineMessages({
  suspended_title: {
    zh: '源已暂停',
    en: 'Source suspended',
    'zh-TW': '源已暫停',
    vi: 'Nguồn đã bị tạm ngưng',
    ar: 'المصدر معلّق',
    es: 'Fuente suspendida',
    ru: 'Источник приостановлен',
  },
  suspended_notice: {
    zh: '此源已暂停：源所有者的订阅已到期。所有者续订后，应用将恢复。',
    en: "This source is suspended: its owner's subscription has ended. Its apps return once the owner renews.",
    'zh-TW': '此源已暫停：源擁有者的訂閱已到期。擁有者續訂後，應用將恢復。',
    vi: 'Nguồn này đã bị tạm ngưng: gói đăng ký của chủ nguồn đã hết hạn. Ứng dụng sẽ trở lại khi chủ nguồn gia hạn.',
    ar: 'هذا المصدر معلّق: انتهى اشتراك مالكه. ستعود تطبيقاته بعد أن يجدّد المالك اشتراكه.',
    es: 'Esta fuente está suspendida: la suscripción de su propietario ha terminado. Sus aplicaciones volverán cuando la renueve.',
    ru: 'Источник приостановлен: подписка владельца закончилась. Приложения вернутся, когда владелец её продлит.',
  },
});
