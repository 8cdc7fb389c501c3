import { defineMessages } from '../define-messages';

/** Publishing refusals that come from reading the app's IPA (data.error names the reason). */
export const ipaMessages = defineMessages({
  ipa_mismatch: {
    zh: 'IPA 与应用信息不符：IPA 的 {field} 是 {ipa_value}，应用填写的是 {app_value}',
    en: "The IPA does not match the app: the IPA's {field} is {ipa_value}, the app says {app_value}",
    'zh-TW': 'IPA 與應用資訊不符：IPA 的 {field} 是 {ipa_value}，應用填寫的是 {app_value}',
    vi: 'IPA không khớp với ứng dụng: {field} của IPA là {ipa_value}, ứng dụng ghi {app_value}',
    ar: 'ملف IPA لا يطابق التطبيق: قيمة {field} في IPA هي {ipa_value} بينما يذكر التطبيق {app_value}',
    es: 'El IPA no coincide con la aplicación: el {field} del IPA es {ipa_value}, la aplicación indica {app_value}',
    ru: 'IPA не совпадает с приложением: {field} в IPA — {ipa_value}, у приложения — {app_value}',
  },
  ipa_invalid: {
    zh: '下载地址的文件不是可安装的 IPA',
    en: 'The file at the download URL is not an installable IPA',
    'zh-TW': '下載網址的檔案不是可安裝的 IPA',
    vi: 'Tệp tại URL tải xuống không phải là IPA có thể cài đặt',
    ar: 'الملف الموجود في رابط التنزيل ليس ملف IPA قابلاً للتثبيت',
    es: 'El archivo de la URL de descarga no es un IPA instalable',
    ru: 'Файл по ссылке для загрузки не является устанавливаемым IPA',
  },
  ipa_too_large: {
    zh: 'IPA 文件超过大小上限（{limit} 字节）',
    en: 'The IPA is larger than the size limit ({limit} bytes)',
    'zh-TW': 'IPA 檔案超過大小上限（{limit} 位元組）',
    vi: 'IPA lớn hơn giới hạn kích thước ({limit} byte)',
    ar: 'ملف IPA أكبر من الحد المسموح ({limit} بايت)',
    es: 'El IPA supera el tamaño máximo ({limit} bytes)',
    ru: 'IPA больше допустимого размера ({limit} байт)',
  },
  ipa_pending: {
    zh: 'IPA 正在检查中，请在 {seconds} 秒后重试发布',
    en: 'The IPA is still being inspected; retry publishing in {seconds} seconds',
    'zh-TW': 'IPA 正在檢查中，請在 {seconds} 秒後重試發佈',
    vi: 'IPA vẫn đang được kiểm tra; hãy thử phát hành lại sau {seconds} giây',
    ar: 'لا يزال فحص ملف IPA جارياً؛ أعد محاولة النشر بعد {seconds} ثانية',
    es: 'El IPA aún se está inspeccionando; vuelve a publicar en {seconds} segundos',
    ru: 'IPA ещё проверяется; повторите публикацию через {seconds} с',
  },
  ipa_unreachable: {
    zh: '无法下载 IPA：下载地址返回错误或无法访问',
    en: 'The IPA could not be downloaded: the download URL answered an error or could not be reached',
    'zh-TW': '無法下載 IPA：下載網址回應錯誤或無法連線',
    vi: 'Không thể tải IPA: URL tải xuống trả về lỗi hoặc không truy cập được',
    ar: 'تعذّر تنزيل ملف IPA: رابط التنزيل أعاد خطأً أو تعذّر الوصول إليه',
    es: 'No se pudo descargar el IPA: la URL de descarga respondió con un error o no se pudo alcanzar',
    ru: 'Не удалось загрузить IPA: ссылка для загрузки вернула ошибку или недоступна',
  },
  ipa_slow: {
    zh: '无法下载 IPA：下载地址响应过慢',
    en: 'The IPA could not be downloaded: the download URL is too slow',
    'zh-TW': '無法下載 IPA：下載網址回應過慢',
    vi: 'Không thể tải IPA: URL tải xuống quá chậm',
    ar: 'تعذّر تنزيل ملف IPA: رابط التنزيل بطيء جداً',
    es: 'No se pudo descargar el IPA: la URL de descarga es demasiado lenta',
    ru: 'Не удалось загрузить IPA: ссылка для загрузки отвечает слишком медленно',
  },
});
