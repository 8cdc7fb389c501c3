import { defineMessages } from '../define-messages';

/** The dashboard's series (`/api/user/stats?series=…`): a range it does not answer. */
export const statsMessages = defineMessages({
  stats_range_invalid: {
    zh: '日期范围无效：from 不能晚于 to，且一个序列最多 {days} 天或 {months} 个月',
    en: 'Invalid range: from must not be after to, and a series spans at most {days} days or {months} months',
    'zh-TW': '日期範圍無效：from 不能晚於 to，且一個序列最多 {days} 天或 {months} 個月',
    vi: 'Khoảng thời gian không hợp lệ: from không được sau to, và một chuỗi tối đa {days} ngày hoặc {months} tháng',
    ar: 'نطاق غير صالح: يجب ألا يكون from بعد to، وتمتد السلسلة {days} يومًا أو {months} شهرًا على الأكثر',
    es: 'Rango no válido: from no puede ser posterior a to, y una serie abarca como máximo {days} días o {months} meses',
    ru: 'Недопустимый диапазон: from не может быть позже to, а ряд охватывает не более {days} дней или {months} месяцев',
  },
  stats_series_required: {
    zh: 'from、to 和 format 需与 series=day 或 series=month 一起使用',
    en: 'from, to and format go with series=day or series=month',
    'zh-TW': 'from、to 和 format 需與 series=day 或 series=month 一起使用',
    vi: 'from, to và format phải đi cùng series=day hoặc series=month',
    ar: 'تُستخدم from وto وformat مع series=day أو series=month فقط',
    es: 'from, to y format van con series=day o series=month',
    ru: 'from, to и format используются вместе с series=day или series=month',
  },
  stats_by_agent_required: {
    zh: 'period 和 cursor 需与 by=agent 一起使用',
    en: 'period and cursor go with by=agent',
    'zh-TW': 'period 和 cursor 需與 by=agent 一起使用',
    vi: 'period và cursor phải đi cùng by=agent',
    ar: 'تُستخدم period وcursor مع by=agent فقط',
    es: 'period y cursor van con by=agent',
    ru: 'period и cursor используются вместе с by=agent',
  },
});
