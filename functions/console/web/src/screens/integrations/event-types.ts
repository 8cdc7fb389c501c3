/**
 * The event types, from the API's own document: a `Record` over the type the webhook route declares, so a type
 * the API adds or drops is a compile error here until it is named in every language.
 */
import type { paths } from '../../api/client';
import type { Translations } from '../../i18n';

type WebhookBody = NonNullable<NonNullable<paths['/api/user/webhook']['put']['requestBody']>['content']['application/json']>;
export type EventType = Extract<NonNullable<WebhookBody['events']>, unknown[]>[number];

const L = (zh: string, en: string, zhTW: string, vi: string, ar: string, es: string, ru: string): Translations => ({ zh, en, 'zh-TW': zhTW, vi, ar, es, ru });

export const EVENT_LABELS: Record<EventType, Translations> = {
  'device.added': L('设备已添加', 'Device added', '裝置已新增', 'Đã thêm thiết bị', 'أضيف جهاز', 'Dispositivo añadido', 'Устройство добавлено'),
  'reservation.issued': L('审核完成，证书就绪', 'Review done, certificate ready', '審核完成，憑證就緒', 'Duyệt xong, chứng chỉ sẵn sàng', 'اكتملت المراجعة والشهادة جاهزة', 'Revisión terminada, certificado listo', 'Проверка завершена, сертификат готов'),
  'reservation.failed': L('审核失败', 'Review failed', '審核失敗', 'Duyệt thất bại', 'فشلت المراجعة', 'Revisión fallida', 'Проверка не удалась'),
  'device.revoked': L('证书被撤销', 'Certificate revoked', '憑證被撤銷', 'Chứng chỉ bị thu hồi', 'أُلغيت الشهادة', 'Certificado revocado', 'Сертификат отозван'),
  'device.expiring': L('证书即将到期', 'Certificate expiring', '憑證即將到期', 'Chứng chỉ sắp hết hạn', 'الشهادة على وشك الانتهاء', 'Certificado a punto de caducar', 'Сертификат скоро истечёт'),
  'balance.low': L('余额不足', 'Balance low', '餘額不足', 'Số dư thấp', 'الرصيد منخفض', 'Saldo bajo', 'Низкий баланс'),
  'subscription.expiring': L('订阅即将到期', 'Subscription expiring', '訂閱即將到期', 'Gói sắp hết hạn', 'الاشتراك على وشك الانتهاء', 'Suscripción a punto de caducar', 'Подписка скоро закончится'),
  'subscription.expired': L('订阅已到期', 'Subscription expired', '訂閱已到期', 'Gói đã hết hạn', 'انتهى الاشتراك', 'Suscripción caducada', 'Подписка закончилась'),
  'account.alert': L('Apple 账号提醒', 'Apple account alert', 'Apple 帳號提醒', 'Cảnh báo tài khoản Apple', 'تنبيه حساب Apple', 'Alerta de cuenta de Apple', 'Оповещение аккаунта Apple'),
  'account.renewal': L('Apple 账号证书续期结束', 'Apple account renewal ended', 'Apple 帳號憑證續期結束', 'Gia hạn chứng chỉ tài khoản Apple đã xong', 'انتهى تجديد شهادة حساب Apple', 'Renovación de cuenta de Apple terminada', 'Обновление сертификата аккаунта Apple завершено'),
  'udid.captured': L('已获取 UDID', 'UDID captured', '已擷取 UDID', 'Đã thu UDID', 'التُقط UDID', 'UDID capturado', 'UDID получен'),
  'agent.device_added': L('代理添加了设备', 'Agent added a device', '代理新增了裝置', 'Đại lý đã thêm thiết bị', 'أضاف وكيل جهازًا', 'Un agente añadió un dispositivo', 'Агент добавил устройство'),
  'agent.balance_low': L('代理余额不足', 'Agent balance low', '代理餘額不足', 'Số dư đại lý thấp', 'رصيد الوكيل منخفض', 'Saldo de agente bajo', 'Низкий баланс агента'),
};

export const EVENT_TYPES = Object.keys(EVENT_LABELS) as EventType[];
