import { defineStrings, type Translations } from '../../i18n';

/** zh, en, zh-TW, vi, ar, es, ru — in that order. The storefront section of the agents screen. */
const L = (zh: string, en: string, zhTW: string, vi: string, ar: string, es: string, ru: string): Translations => ({ zh, en, 'zh-TW': zhTW, vi, ar, es, ru });

export const storefrontStrings = defineStrings({
  title: L('店铺', 'Storefront', '店鋪', 'Cửa hàng', 'المتجر', 'Tienda', 'Витрина'),
  own_title: L('我的店铺', 'My storefront', '我的店鋪', 'Cửa hàng của tôi', 'متجري', 'Mi tienda', 'Моя витрина'),
  intro: L('客户在店铺页面、安装页面、UDID 描述文件和源中看到的品牌；不会显示上级。', 'The brand customers see on the store page, the install pages, the UDID profile and the feeds; nothing of the levels above is shown.', '客戶在店鋪頁面、安裝頁面、UDID 描述檔和源中看到的品牌；不會顯示上級。', 'Thương hiệu khách thấy trên trang cửa hàng, trang cài đặt, hồ sơ UDID và nguồn; không hiện gì của cấp trên.', 'العلامة التي يراها العملاء في صفحة المتجر وصفحات التثبيت وملف UDID والمصادر؛ لا يظهر شيء من المستويات الأعلى.', 'La marca que ven los clientes en la página de la tienda, las de instalación, el perfil UDID y las fuentes; no se muestra nada de los niveles superiores.', 'Бренд, который клиенты видят на странице магазина, страницах установки, в профиле UDID и источниках; ничего о вышестоящих уровнях.'),
  name: L('店铺名称', "Shop's name", '店鋪名稱', 'Tên cửa hàng', 'اسم المتجر', 'Nombre de la tienda', 'Название магазина'),
  name_hint: L('留空则使用代理名称。', "Empty: the agent's own name.", '留空則使用代理名稱。', 'Để trống: dùng tên đại lý.', 'فارغ: اسم الوكيل نفسه.', 'Vacío: el nombre del agente.', 'Пусто — имя агента.'),
  logo_url: L('标志（https 地址）', 'Logo (https address)', '標誌（https 位址）', 'Logo (địa chỉ https)', 'الشعار (عنوان https)', 'Logotipo (dirección https)', 'Логотип (адрес https)'),
  primary_color: L('按钮颜色', 'Buttons colour', '按鈕顏色', 'Màu nút', 'لون الأزرار', 'Color de los botones', 'Цвет кнопок'),
  primary_hint: L('#RRGGBB，需足够深以显示白色文字。', '#RRGGBB, dark enough for white text.', '#RRGGBB，需足夠深以顯示白色文字。', '#RRGGBB, đủ đậm cho chữ trắng.', '‎#RRGGBB، داكن بما يكفي للنص الأبيض.', '#RRGGBB, lo bastante oscuro para texto blanco.', '#RRGGBB, достаточно тёмный для белого текста.'),
  header_color: L('页眉颜色', 'Header colour', '頁首顏色', 'Màu đầu trang', 'لون الترويسة', 'Color del encabezado', 'Цвет шапки'),
  notice: L('公告', 'Notice', '公告', 'Thông báo', 'الإشعار', 'Aviso', 'Объявление'),
  contact: L('联系方式', 'Contact', '聯絡方式', 'Liên hệ', 'التواصل', 'Contacto', 'Контакт'),
  buy_url: L('购买链接（https 地址）', 'Buy link (https address)', '購買連結（https 位址）', 'Liên kết mua (địa chỉ https)', 'رابط الشراء (عنوان https)', 'Enlace de compra (dirección https)', 'Ссылка для покупки (адрес https)'),
  domain: L('自有域名', 'Own domain', '自有網域', 'Tên miền riêng', 'النطاق الخاص', 'Dominio propio', 'Собственный домен'),
  domain_hint: L('例如 shop.example.com；将其 DNS 指向本服务，并添加下方的 TXT 记录。', 'For example shop.example.com; point its DNS at this service and add the TXT record below.', '例如 shop.example.com；將其 DNS 指向本服務，並新增下方的 TXT 記錄。', 'Ví dụ shop.example.com; trỏ DNS về dịch vụ này và thêm bản ghi TXT bên dưới.', 'مثل shop.example.com؛ وجّه DNS إلى هذه الخدمة وأضف سجل TXT أدناه.', 'Por ejemplo shop.example.com; apunte su DNS a este servicio y añada el registro TXT de abajo.', 'Например shop.example.com; направьте DNS на этот сервис и добавьте TXT-запись ниже.'),
  save: L('保存店铺', 'Save the storefront', '儲存店鋪', 'Lưu cửa hàng', 'حفظ المتجر', 'Guardar la tienda', 'Сохранить витрину'),
  verify: L('验证域名', 'Verify the domain', '驗證網域', 'Xác minh tên miền', 'التحقق من النطاق', 'Verificar el dominio', 'Проверить домен'),
  state_none: L('无域名', 'No domain', '無網域', 'Không có tên miền', 'لا نطاق', 'Sin dominio', 'Нет домена'),
  state_pending: L('待验证', 'Waiting for its proof', '待驗證', 'Chờ xác minh', 'بانتظار التحقق', 'Pendiente de verificar', 'Ожидает проверки'),
  state_active: L('已生效', 'Serving', '已生效', 'Đang chạy', 'يعمل', 'Activo', 'Работает'),
  proof: L('添加此 DNS 记录：', 'Add this DNS record:', '新增此 DNS 記錄：', 'Thêm bản ghi DNS này:', 'أضف سجل DNS هذا:', 'Añada este registro DNS:', 'Добавьте эту DNS-запись:'),
  pages: L('店铺页面', 'Store page', '店鋪頁面', 'Trang cửa hàng', 'صفحة المتجر', 'Página de la tienda', 'Страница магазина'),
  saved: L('店铺已保存。', 'Storefront saved.', '店鋪已儲存。', 'Đã lưu cửa hàng.', 'تم حفظ المتجر.', 'Tienda guardada.', 'Витрина сохранена.'),
  verified: L('域名已验证，店铺已在其上提供。', 'Domain verified: the storefront is served on it.', '網域已驗證，店鋪已在其上提供。', 'Đã xác minh tên miền: cửa hàng đang chạy trên đó.', 'تم التحقق من النطاق: المتجر يعمل عليه.', 'Dominio verificado: la tienda se sirve en él.', 'Домен подтверждён: витрина работает на нём.'),
  preview: L('预览', 'Preview', '預覽', 'Xem trước', 'معاينة', 'Vista previa', 'Предпросмотр'),
});
