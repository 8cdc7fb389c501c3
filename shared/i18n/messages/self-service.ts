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
