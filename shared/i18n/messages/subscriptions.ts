import { defineMessages } from '../define-messages';

/** Plans, the trial and purchases. */
export const subscriptionMessages = defineMessages({
  plan_unavailable: {
    zh: '该套餐不存在或已停售',
    en: 'This plan does not exist or is no longer sold',
    'zh-TW': '此方案不存在或已停售',
    vi: 'Gói này không tồn tại hoặc không còn được bán',
    ar: 'هذه الخطة غير موجودة أو لم تعد تُباع',
    es: 'Este plan no existe o ya no se vende',
    ru: 'Такого тарифа нет или он больше не продаётся',
  },
  trial_unavailable: {
    zh: '无法试用：本站未提供试用、已使用过试用，或订阅仍在有效期内',
    en: 'The trial is not available: none is offered here, it was already used, or a subscription is running',
    'zh-TW': '無法試用：本站未提供試用、已使用過試用，或訂閱仍在有效期內',
    vi: 'Không thể dùng thử: nơi này không cung cấp, bạn đã dùng rồi, hoặc gói đăng ký vẫn còn hiệu lực',
    ar: 'التجربة غير متاحة: لا تُقدَّم هنا، أو استُخدمت من قبل، أو يوجد اشتراك سارٍ',
    es: 'La prueba no está disponible: no se ofrece aquí, ya se usó o hay una suscripción en curso',
    ru: 'Пробный период недоступен: он здесь не предлагается, уже был использован или подписка ещё действует',
  },
  balance_too_low: {
    zh: '余额不足：套餐价格为 {price}',
    en: "Your balance does not cover the plan's price ({price})",
    'zh-TW': '餘額不足：方案價格為 {price}',
    vi: 'Số dư không đủ cho giá của gói ({price})',
    ar: 'رصيدك لا يغطي سعر الخطة ({price})',
    es: 'Su saldo no cubre el precio del plan ({price})',
    ru: 'Баланса не хватает на оплату тарифа ({price})',
  },
  subscription_changed: {
    zh: '订阅刚刚被修改，请重试',
    en: 'The subscription changed meanwhile; try again',
    'zh-TW': '訂閱剛剛被修改，請重試',
    vi: 'Gói đăng ký vừa thay đổi; hãy thử lại',
    ar: 'تغيّر الاشتراك للتو؛ حاول مرة أخرى',
    es: 'La suscripción cambió mientras tanto; inténtelo de nuevo',
    ru: 'Подписка только что изменилась; повторите попытку',
  },
});
