import { defineMessages } from '../define-messages';

/** The UDID profile: what it says it does, and the one parameter its download needs. */
export const udidProfileMessages = defineMessages({
  return_required: {
    zh: '请传入 return：采集完成后顾客返回的地址',
    en: 'Pass return: where the customer goes once the UDID is captured',
    'zh-TW': '請傳入 return：擷取完成後顧客返回的網址',
    vi: 'Hãy truyền return: nơi khách hàng quay về sau khi lấy UDID',
    ar: 'مرّر return: الوجهة التي يعود إليها العميل بعد التقاط UDID',
    es: 'Indique return: adónde vuelve el cliente tras capturar el UDID',
    ru: 'Передайте return: куда клиент вернётся после получения UDID',
  },
  return_not_allowed: {
    zh: 'return 不是本站的地址，也不是运营者登记的返回地址',
    en: "return is neither one of this site's addresses nor a return target its operator registered",
    'zh-TW': 'return 不是本站的網址，也不是營運者登記的返回網址',
    vi: 'return không phải địa chỉ của trang này và cũng không phải địa chỉ trả về mà nhà vận hành đã đăng ký',
    ar: 'return ليس أحد عناوين هذا الموقع ولا وجهة عودة سجّلها المشغّل',
    es: 'return no es una dirección de este sitio ni un destino de retorno registrado por su operador',
    ru: 'return — не адрес этого сайта и не адрес возврата, зарегистрированный его оператором',
  },
  udid_profile_description: {
    zh: '向 {name} 发送一次本设备的 UDID、型号和 iOS 版本。不会安装任何内容。',
    en: "Sends this device's UDID, model and iOS version to {name} once. It installs nothing.",
    'zh-TW': '向 {name} 傳送一次本裝置的 UDID、型號和 iOS 版本。不會安裝任何內容。',
    vi: 'Gửi một lần UDID, kiểu máy và phiên bản iOS của thiết bị này tới {name}. Không cài đặt gì cả.',
    ar: 'يرسل UDID هذا الجهاز وطرازه وإصدار iOS إلى {name} مرة واحدة. لا يثبّت أي شيء.',
    es: 'Envía una vez el UDID, el modelo y la versión de iOS de este dispositivo a {name}. No instala nada.',
    ru: 'Однократно отправляет {name} UDID, модель и версию iOS этого устройства. Ничего не устанавливает.',
  },
});
