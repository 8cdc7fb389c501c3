import { defineMessages } from '../define-messages';

/** What a source owner meets on a write when their subscription is missing or ended (every write route carries these). */
export const subscriptionStateMessages = defineMessages({
  subscription_required: {
    zh: '需要有效的订阅或试用：请购买套餐或开始试用',
    en: 'An active subscription or trial is needed: buy a plan or start the trial',
    'zh-TW': '需要有效的訂閱或試用：請購買方案或開始試用',
    vi: 'Cần có gói đăng ký hoặc dùng thử còn hiệu lực: hãy mua gói hoặc bắt đầu dùng thử',
    ar: 'يلزم اشتراك أو تجربة سارية: اشترِ خطة أو ابدأ التجربة',
    es: 'Se necesita una suscripción o prueba activa: compre un plan o inicie la prueba',
    ru: 'Нужна действующая подписка или пробный период: купите тариф или начните пробный период',
  },
  subscription_expired: {
    zh: '订阅已到期：续订后才能修改源（仍可查看和删除）',
    en: 'Your subscription has ended: renew it to change your sources (reading and deleting still work)',
    'zh-TW': '訂閱已到期：續訂後才能修改源（仍可查看和刪除）',
    vi: 'Gói đăng ký đã hết hạn: hãy gia hạn để thay đổi nguồn (vẫn có thể xem và xóa)',
    ar: 'انتهى اشتراكك: جدّده لتعديل مصادرك (القراءة والحذف ما زالا متاحين)',
    es: 'Su suscripción ha terminado: renuévela para modificar sus fuentes (leer y borrar sigue funcionando)',
    ru: 'Подписка закончилась: продлите её, чтобы изменять источники (чтение и удаление доступны)',
  },
});
