import { defineMessages } from '../define-messages';

/**
 * UDID capture: the install page a customer opens on the iPhone; its texts speak to the customer. The profile's
 * texts (udid-profile.ts), the refusals of a device's answer (device-answer.ts) and of a capture ticket
 * (capture-ticket.ts) are apart, each carried only by the function that answers with it.
 */
export const udidCaptureMessages = defineMessages({
  udid_page_title: {
    zh: '获取设备 UDID',
    en: "Get your device's UDID",
    'zh-TW': '取得裝置 UDID',
    vi: 'Lấy UDID của thiết bị',
    ar: 'احصل على UDID جهازك',
    es: 'Obtenga el UDID de su dispositivo',
    ru: 'Узнайте UDID устройства',
  },
  udid_page_steps: {
    zh: '点击按钮并允许下载，然后在“设置”中安装描述文件。完成后会自动回到此页并显示 UDID。',
    en: 'Tap the button and allow the download, then install the profile in Settings. You come back here with your UDID.',
    'zh-TW': '點擊按鈕並允許下載，然後在「設定」中安裝描述檔。完成後會自動回到此頁並顯示 UDID。',
    vi: 'Nhấn nút và cho phép tải xuống, rồi cài hồ sơ trong Cài đặt. Bạn sẽ quay lại đây cùng UDID.',
    ar: 'اضغط الزر واسمح بالتنزيل، ثم ثبّت ملف التعريف من الإعدادات. ستعود إلى هنا ومعك UDID.',
    es: 'Pulse el botón y permita la descarga; luego instale el perfil en Ajustes. Volverá aquí con su UDID.',
    ru: 'Нажмите кнопку и разрешите загрузку, затем установите профиль в «Настройках». Вы вернётесь сюда с UDID.',
  },
  udid_page_button: {
    zh: '获取我的 UDID',
    en: 'Get my UDID',
    'zh-TW': '取得我的 UDID',
    vi: 'Lấy UDID của tôi',
    ar: 'احصل على UDID الخاص بي',
    es: 'Obtener mi UDID',
    ru: 'Получить мой UDID',
  },
  udid_page_your_udid: {
    zh: '你的 UDID',
    en: 'Your UDID',
    'zh-TW': '你的 UDID',
    vi: 'UDID của bạn',
    ar: 'UDID الخاص بك',
    es: 'Su UDID',
    ru: 'Ваш UDID',
  },
  udid_page_copy: {
    zh: '复制',
    en: 'Copy',
    'zh-TW': '複製',
    vi: 'Sao chép',
    ar: 'نسخ',
    es: 'Copiar',
    ru: 'Копировать',
  },
  udid_page_copied: {
    zh: '已复制',
    en: 'Copied',
    'zh-TW': '已複製',
    vi: 'Đã sao chép',
    ar: 'تم النسخ',
    es: 'Copiado',
    ru: 'Скопировано',
  },
  udid_page_add_source: {
    zh: '一键添加本源',
    en: 'Add this source in one tap',
    'zh-TW': '一鍵加入本源',
    vi: 'Thêm nguồn này chỉ với một chạm',
    ar: 'أضف هذا المصدر بلمسة واحدة',
    es: 'Añada esta fuente con un toque',
    ru: 'Добавьте источник одним касанием',
  },
  udid_page_feed_url: {
    zh: '源地址（可手动添加）',
    en: 'Source URL (to add by hand)',
    'zh-TW': '源網址（可手動加入）',
    vi: 'URL nguồn (để thêm thủ công)',
    ar: 'رابط المصدر (للإضافة يدويًا)',
    es: 'URL de la fuente (para añadirla a mano)',
    ru: 'Адрес источника (для ручного добавления)',
  },
  udid_page_url_revoked: {
    zh: '源的所有者已撤销此设备的源地址。请重新获取 UDID 以领取新的地址。',
    en: "The source's owner revoked this device's feed URL. Get your UDID again to receive a new one.",
    'zh-TW': '源的擁有者已撤銷此裝置的源網址。請重新取得 UDID 以領取新的網址。',
    vi: 'Chủ nguồn đã thu hồi URL nguồn của thiết bị này. Hãy lấy lại UDID để nhận URL mới.',
    ar: 'ألغى مالك المصدر رابط المصدر لهذا الجهاز. احصل على UDID مرة أخرى لتتلقى رابطًا جديدًا.',
    es: 'El propietario de la fuente revocó la URL de la fuente de este dispositivo. Obtenga su UDID de nuevo para recibir una nueva.',
    ru: 'Владелец источника отозвал адрес источника для этого устройства. Получите UDID снова, чтобы получить новый адрес.',
  },
  udid_page_error_title: {
    zh: '未能获取 UDID',
    en: 'The UDID was not received',
    'zh-TW': '未能取得 UDID',
    vi: 'Chưa nhận được UDID',
    ar: 'لم يُستلم UDID',
    es: 'No se recibió el UDID',
    ru: 'UDID не получен',
  },
});
