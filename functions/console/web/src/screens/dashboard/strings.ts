import { defineStrings } from '../../i18n';

export const strings = defineStrings({
  title: { zh: '概览', en: 'Dashboard', 'zh-TW': '概覽', vi: 'Tổng quan', ar: 'لوحة المعلومات', es: 'Panel', ru: 'Обзор' },
  balance: { zh: '余额', en: 'Balance', 'zh-TW': '餘額', vi: 'Số dư', ar: 'الرصيد', es: 'Saldo', ru: 'Баланс' },
  today: { zh: '今日（UTC）', en: 'Today (UTC)', 'zh-TW': '今日（UTC）', vi: 'Hôm nay (UTC)', ar: 'اليوم (UTC)', es: 'Hoy (UTC)', ru: 'Сегодня (UTC)' },
  month: { zh: '本月（UTC）', en: 'This month (UTC)', 'zh-TW': '本月（UTC）', vi: 'Tháng này (UTC)', ar: 'هذا الشهر (UTC)', es: 'Este mes (UTC)', ru: 'Этот месяц (UTC)' },
  adds_spend: { zh: '{adds} 次添加 · 支出 {spend}', en: '{adds} adds · {spend} spent', 'zh-TW': '{adds} 次新增 · 支出 {spend}', vi: '{adds} lượt thêm · chi {spend}', ar: '{adds} إضافات · أُنفق {spend}', es: '{adds} altas · {spend} gastados', ru: 'Добавлений: {adds} · потрачено {spend}' },
  at_least: { zh: '至少', en: 'at least', 'zh-TW': '至少', vi: 'ít nhất', ar: 'على الأقل', es: 'al menos', ru: 'не менее' },
  devices: { zh: '设备状态', en: 'Devices by state', 'zh-TW': '裝置狀態', vi: 'Thiết bị theo trạng thái', ar: 'الأجهزة حسب الحالة', es: 'Dispositivos por estado', ru: 'Устройства по состоянию' },
  devices_all: { zh: '全部 {n} 台设备', en: 'All {n} devices', 'zh-TW': '全部 {n} 台裝置', vi: 'Tất cả {n} thiết bị', ar: 'كل الأجهزة ({n})', es: 'Los {n} dispositivos', ru: 'Все устройства: {n}' },
  devices_latest: { zh: '最近添加的 {n} 台设备', en: 'Your latest {n} devices', 'zh-TW': '最近新增的 {n} 台裝置', vi: '{n} thiết bị mới nhất', ar: 'آخر {n} أجهزة', es: 'Sus últimos {n} dispositivos', ru: 'Последние {n} устройств' },
  expiring: { zh: '7 天内到期的证书', en: 'Certificates ending within 7 days', 'zh-TW': '7 天內到期的憑證', vi: 'Chứng chỉ hết hạn trong 7 ngày', ar: 'شهادات تنتهي خلال 7 أيام', es: 'Certificados que vencen en 7 días', ru: 'Сертификаты, истекающие за 7 дней' },
  subscription: { zh: '订阅', en: 'Subscription', 'zh-TW': '訂閱', vi: 'Đăng ký', ar: 'الاشتراك', es: 'Suscripción', ru: 'Подписка' },
  sub_none: { zh: '无订阅', en: 'No subscription', 'zh-TW': '無訂閱', vi: 'Chưa đăng ký', ar: 'لا اشتراك', es: 'Sin suscripción', ru: 'Нет подписки' },
  sub_active: { zh: '{plan}，到期 {time}', en: '{plan}, until {time}', 'zh-TW': '{plan}，到期 {time}', vi: '{plan}, đến {time}', ar: '{plan}، حتى {time}', es: '{plan}, hasta {time}', ru: '{plan}, до {time}' },
  sub_expired: { zh: '已过期（{plan}）', en: 'Expired ({plan})', 'zh-TW': '已過期（{plan}）', vi: 'Đã hết hạn ({plan})', ar: 'منتهٍ ({plan})', es: 'Caducada ({plan})', ru: 'Истекла ({plan})' },
  sources_used: { zh: '源：{used} / {allowed}', en: 'Sources: {used} of {allowed}', 'zh-TW': '源：{used} / {allowed}', vi: 'Nguồn: {used}/{allowed}', ar: 'المصادر: {used} من {allowed}', es: 'Fuentes: {used} de {allowed}', ru: 'Источники: {used} из {allowed}' },
  events: { zh: '最新事件', en: 'Latest events', 'zh-TW': '最新事件', vi: 'Sự kiện mới nhất', ar: 'أحدث الأحداث', es: 'Últimos eventos', ru: 'Последние события' },
  no_events: { zh: '暂无事件。', en: 'No events yet.', 'zh-TW': '尚無事件。', vi: 'Chưa có sự kiện.', ar: 'لا أحداث بعد.', es: 'Aún no hay eventos.', ru: 'Событий пока нет.' },
  refunds: { zh: '（{n} 次退款）', en: '({n} refunded)', 'zh-TW': '（{n} 次退款）', vi: '({n} hoàn tiền)', ar: '({n} مستردة)', es: '({n} reembolsadas)', ru: '(возвратов: {n})' },
  see_all: { zh: '查看', en: 'See them', 'zh-TW': '查看', vi: 'Xem', ar: 'عرضها', es: 'Verlos', ru: 'Показать' },
});
