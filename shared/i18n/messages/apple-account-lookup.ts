import { defineMessages } from '../define-messages';

/** An Apple account id that is not the caller's own: the account routes and the device list's `account_id` filter. */
export const appleAccountLookupMessages = defineMessages({
  apple_account_not_found: {
    zh: '苹果账号不存在或不属于您',
    en: 'Apple account not found or not yours',
    'zh-TW': '蘋果帳號不存在或不屬於您',
    vi: 'Không tìm thấy tài khoản Apple hoặc không phải của bạn',
    ar: 'حساب Apple غير موجود أو ليس لك',
    es: 'Cuenta de Apple no encontrada o no es suya',
    ru: 'Аккаунт Apple не найден или принадлежит не вам',
  },
});
