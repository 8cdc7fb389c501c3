import { defineMessages } from '../define-messages';

/** Messages of the reseller's own view: the device list, the balance and the ledger. */
export const selfServiceMessages = defineMessages({
  unknown_param: {
    zh: '未知参数：{fields}',
    en: 'Unknown parameter: {fields}',
    'zh-TW': '未知參數：{fields}',
    vi: 'Tham số không xác định: {fields}',
    ar: 'معامل غير معروف: {fields}',
    es: 'Parámetro desconocido: {fields}',
    ru: 'Неизвестный параметр: {fields}',
  },
  cursor_invalid: {
    zh: 'cursor 无效：请使用上一页返回的 next，或不带 cursor 从头开始',
    en: 'Invalid cursor: pass the next value a page gave you, or start again without cursor',
    'zh-TW': 'cursor 無效：請使用上一頁傳回的 next，或不帶 cursor 從頭開始',
    vi: 'cursor không hợp lệ: hãy truyền giá trị next mà trang trước trả về, hoặc bắt đầu lại không có cursor',
    ar: 'قيمة cursor غير صالحة: أرسل قيمة next التي أعادتها الصفحة السابقة، أو ابدأ من جديد دون cursor',
    es: 'cursor no válido: indique el valor next que dio la página anterior, o empiece de nuevo sin cursor',
    ru: 'Недопустимый cursor: передайте значение next из предыдущей страницы или начните заново без cursor',
  },
  range_invalid: {
    zh: '时间范围无效，起点晚于终点：{fields}',
    en: 'Invalid range, its start is after its end: {fields}',
    'zh-TW': '時間範圍無效，起點晚於終點：{fields}',
    vi: 'Khoảng không hợp lệ, điểm đầu sau điểm cuối: {fields}',
    ar: 'نطاق غير صالح، بدايته بعد نهايته: {fields}',
    es: 'Rango no válido, su inicio es posterior a su final: {fields}',
    ru: 'Недопустимый диапазон: начало позже конца: {fields}',
  },
});
