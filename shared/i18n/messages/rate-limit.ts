import { defineMessages } from '../define-messages';

export const rateLimitMessages = defineMessages({
  rate_limited: {
    zh: '请求过于频繁：每分钟最多 {limit} 次，请在 {retry_after} 秒后重试',
    en: 'Too many requests: the limit is {limit} per minute, retry in {retry_after} seconds',
    'zh-TW': '請求過於頻繁：每分鐘最多 {limit} 次，請在 {retry_after} 秒後重試',
    vi: 'Quá nhiều yêu cầu: giới hạn là {limit} lần mỗi phút, hãy thử lại sau {retry_after} giây',
    ar: 'طلبات كثيرة جدًا: الحد هو {limit} في الدقيقة، أعد المحاولة بعد {retry_after} ثانية',
    es: 'Demasiadas solicitudes: el límite es {limit} por minuto, vuelva a intentarlo en {retry_after} segundos',
    ru: 'Слишком много запросов: лимит {limit} в минуту, повторите через {retry_after} с',
  },
  rate_limit_unavailable: {
    zh: '服务暂时不可用，请稍后重试',
    en: 'The service is temporarily unavailable, please try again later',
    'zh-TW': '服務暫時無法使用，請稍後重試',
    vi: 'Dịch vụ tạm thời không khả dụng, vui lòng thử lại sau',
    ar: 'الخدمة غير متاحة مؤقتًا، يرجى المحاولة لاحقًا',
    es: 'El servicio no está disponible temporalmente, inténtelo de nuevo más tarde',
    ru: 'Сервис временно недоступен, повторите попытку позже',
  },
  rate_limited_hourly: {
    zh: '尝试次数过多：每小时最多失败 {limit} 次，请在 {retry_after} 秒后重试',
    en: 'Too many failed attempts: the limit is {limit} per hour, retry in {retry_after} seconds',
    'zh-TW': '嘗試次數過多：每小時最多失敗 {limit} 次，請在 {retry_after} 秒後重試',
    vi: 'Quá nhiều lần thử thất bại: giới hạn là {limit} lần mỗi giờ, hãy thử lại sau {retry_after} giây',
    ar: 'محاولات فاشلة كثيرة جدًا: الحد هو {limit} في الساعة، أعد المحاولة بعد {retry_after} ثانية',
    es: 'Demasiados intentos fallidos: el límite es {limit} por hora, vuelva a intentarlo en {retry_after} segundos',
    ru: 'Слишком много неудачных попыток: лимит {limit} в час, повторите через {retry_after} с',
  },
  rate_limited_ten_minutes: {
    zh: '尝试次数过多：每 10 分钟最多失败 {limit} 次，请在 {retry_after} 秒后重试',
    en: 'Too many failed attempts: the limit is {limit} per 10 minutes, retry in {retry_after} seconds',
    'zh-TW': '嘗試次數過多：每 10 分鐘最多失敗 {limit} 次，請在 {retry_after} 秒後重試',
    vi: 'Quá nhiều lần thử thất bại: giới hạn là {limit} lần mỗi 10 phút, hãy thử lại sau {retry_after} giây',
    ar: 'محاولات فاشلة كثيرة جدًا: الحد هو {limit} كل 10 دقائق، أعد المحاولة بعد {retry_after} ثانية',
    es: 'Demasiados intentos fallidos: el límite es {limit} cada 10 minutos, vuelva a intentarlo en {retry_after} segundos',
    ru: 'Слишком много неудачных попыток: лимит {limit} за 10 минут, повторите через {retry_after} с',
  },
});
