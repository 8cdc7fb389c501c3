import { defineMessages } from '../define-messages';

/** A token that is missing, invalid or expired: what token auth answers (public routes carry none of it). */
export const tokenMessages = defineMessages({
  token_invalid: {
    zh: '无效的令牌',
    en: 'Invalid token',
    'zh-TW': '無效的權杖',
    vi: 'Token không hợp lệ',
    ar: 'رمز غير صالح',
    es: 'Token no válido',
    ru: 'Недействительный токен',
  },
  token_expired: {
    zh: '令牌已过期',
    en: 'Token expired',
    'zh-TW': '權杖已過期',
    vi: 'Token đã hết hạn',
    ar: 'انتهت صلاحية الرمز',
    es: 'El token ha caducado',
    ru: 'Срок действия токена истёк',
  },
  token_missing: {
    zh: '缺少 token 参数',
    en: 'Token parameter missing',
    'zh-TW': '缺少 token 參數',
    vi: 'Thiếu tham số token',
    ar: 'معامل token مفقود',
    es: 'Falta el parámetro token',
    ru: 'Отсутствует параметр token',
  },
});
