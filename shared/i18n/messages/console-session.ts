import { defineMessages } from '../define-messages';

/**
 * What token auth answers a request made with a console session (every token route carries these, so they are
 * short): the session has ended, or a write lacks its CSRF token.
 */
export const consoleSessionMessages = defineMessages({
  session_expired: {
    zh: '登录已过期，请重新登录',
    en: 'Session ended: sign in again',
    'zh-TW': '登入已過期，請重新登入',
    vi: 'Phiên đã hết hạn: hãy đăng nhập lại',
    ar: 'انتهت الجلسة: سجّل الدخول مجددًا',
    es: 'Sesión terminada: inicie sesión de nuevo',
    ru: 'Сеанс завершён: войдите снова',
  },
  csrf_invalid: {
    zh: 'CSRF 令牌缺失或错误，未做更改',
    en: 'Missing or wrong CSRF token; nothing changed',
    'zh-TW': 'CSRF 權杖缺失或錯誤，未做變更',
    vi: 'Thiếu hoặc sai mã CSRF; không có gì thay đổi',
    ar: 'رمز CSRF مفقود أو خاطئ؛ لم يتغير شيء',
    es: 'Token CSRF ausente o incorrecto; no se cambió nada',
    ru: 'CSRF-токен отсутствует или неверен; ничего не изменено',
  },
});
