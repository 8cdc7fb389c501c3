import { defineMessages } from '../define-messages';

/** What every management request may be told about its fields (the app lifecycle and quotas are apart). */
export const managementMessages = defineMessages({
  unknown_field: {
    zh: '不支持的字段：{fields}',
    en: 'Unknown field(s): {fields}',
    'zh-TW': '不支援的欄位：{fields}',
    vi: 'Trường không xác định: {fields}',
    ar: 'حقول غير معروفة: {fields}',
    es: 'Campo(s) desconocido(s): {fields}',
    ru: 'Неизвестные поля: {fields}',
  },
  admin_field: {
    zh: '仅管理员可设置的字段：{fields}',
    en: 'Administrator-only field(s) cannot be set: {fields}',
    'zh-TW': '僅管理員可設定的欄位：{fields}',
    vi: 'Không thể đặt trường chỉ dành cho quản trị viên: {fields}',
    ar: 'لا يمكن تعيين حقول خاصة بالمسؤول: {fields}',
    es: 'No se pueden establecer campos reservados al administrador: {fields}',
    ru: 'Поля, доступные только администратору, нельзя изменить: {fields}',
  },
  read_only_field: {
    zh: '只读字段不可修改：{fields}',
    en: 'Read-only field(s) cannot be set: {fields}',
    'zh-TW': '唯讀欄位不可修改：{fields}',
    vi: 'Không thể đặt trường chỉ đọc: {fields}',
    ar: 'لا يمكن تعيين حقول للقراءة فقط: {fields}',
    es: 'No se pueden establecer campos de solo lectura: {fields}',
    ru: 'Поля только для чтения нельзя изменить: {fields}',
  },
  empty_update: {
    zh: '没有要更新的内容，请至少提供一个字段',
    en: 'Nothing to update: supply at least one field',
    'zh-TW': '沒有要更新的內容，請至少提供一個欄位',
    vi: 'Không có gì để cập nhật: hãy cung cấp ít nhất một trường',
    ar: 'لا يوجد ما يتم تحديثه: قدّم حقلًا واحدًا على الأقل',
    es: 'Nada que actualizar: indique al menos un campo',
    ru: 'Нечего обновлять: укажите хотя бы одно поле',
  },
});
