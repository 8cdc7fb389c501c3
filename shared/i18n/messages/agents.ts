import { defineMessages } from '../define-messages';

/** Agents (`/api/user/agents`). Short on purpose: the agents function's bundle carries them all. */
export const agentMessages = defineMessages({
  agent_created: {
    zh: '代理已创建；令牌仅显示这一次',
    en: 'Agent created; its token is shown only now',
    'zh-TW': '代理已建立；權杖僅顯示這一次',
    vi: 'Đã tạo đại lý; token chỉ hiện lần này',
    ar: 'تم إنشاء الوكيل؛ رمزه يظهر الآن فقط',
    es: 'Agente creado; su token solo se muestra ahora',
    ru: 'Агент создан; токен показан только сейчас',
  },
  agent_depth_exceeded: {
    zh: '代理最多三级',
    en: 'Agents go three levels deep at most',
    'zh-TW': '代理最多三級',
    vi: 'Đại lý tối đa ba cấp',
    ar: 'الوكلاء ثلاثة مستويات كحد أقصى',
    es: 'Los agentes llegan a tres niveles como máximo',
    ru: 'Не более трёх уровней агентов',
  },
  agent_price_below_cost: {
    zh: '价格 {price} 低于您的成本 {cost}',
    en: 'Price {price} is below your cost {cost}',
    'zh-TW': '價格 {price} 低於您的成本 {cost}',
    vi: 'Giá {price} thấp hơn giá vốn {cost} của bạn',
    ar: 'السعر {price} أقل من تكلفتك {cost}',
    es: 'El precio {price} es inferior a su coste {cost}',
    ru: 'Цена {price} ниже вашей цены {cost}',
  },
  agent_account_suspended: {
    zh: '您的账户已被暂停',
    en: 'Your account is suspended',
    'zh-TW': '您的帳戶已被暫停',
    vi: 'Tài khoản của bạn đã bị tạm ngưng',
    ar: 'حسابك موقوف',
    es: 'Su cuenta está suspendida',
    ru: 'Ваш аккаунт приостановлен',
  },
  topup_not_covered: {
    zh: '余额不足：需要 {amount}，余额 {balance}',
    en: 'Balance too low: {amount} needed, {balance} available',
    'zh-TW': '餘額不足：需要 {amount}，餘額 {balance}',
    vi: 'Số dư không đủ: cần {amount}, có {balance}',
    ar: 'الرصيد غير كافٍ: المطلوب {amount}، المتاح {balance}',
    es: 'Saldo insuficiente: se necesitan {amount}, hay {balance}',
    ru: 'Недостаточно средств: нужно {amount}, есть {balance}',
  },
});
