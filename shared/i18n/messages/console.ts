import { defineMessages } from '../define-messages';

/** What the console's file server answers for a path that names no file of the web app. */
export const consoleMessages = defineMessages({
  console_file_not_found: {
    zh: '控制台中没有此文件',
    en: 'No such file in the console',
    'zh-TW': '控制台中沒有此檔案',
    vi: 'Không có tệp này trong bảng điều khiển',
    ar: 'لا يوجد ملف كهذا في لوحة التحكم',
    es: 'No existe ese archivo en la consola',
    ru: 'В консоли нет такого файла',
  },
});
