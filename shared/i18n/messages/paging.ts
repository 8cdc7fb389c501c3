import { defineMessages } from '../define-messages';

/** Paging is common to every list (devices, ledger, sources, apps, captures): one text for its bad cursor. */
export const pagingMessages = defineMessages({
  cursor_invalid: {
    zh: 'cursor 无效：请使用上一页返回的 next，或不带 cursor 从头开始',
    en: 'Invalid cursor: pass the next value a page gave you, or start again without cursor',
    'zh-TW': 'cursor 無效：請使用上一頁傳回的 next，或不帶 cursor 從頭開始',
    vi: 'cursor không hợp lệ: hãy truyền giá trị next mà trang trước trả về, hoặc bắt đầu lại không có cursor',
    ar: 'قيمة cursor غير صالحة: أرسل قيمة next التي أعادتها الصفحة السابقة، أو ابدأ من جديد دون cursor',
    es: 'cursor no válido: indique el valor next que dio la página anterior, o empiece de nuevo sin cursor',
    ru: 'Недопустимый cursor: передайте значение next из предыдущей страницы или начните заново без cursor',
  },
});
