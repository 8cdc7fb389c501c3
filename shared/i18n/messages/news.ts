import { defineMessages } from '../define-messages';

/** The news API of a source: what its owner can be told. */
export const newsMessages = defineMessages({
  news_full: {
    zh: '该源的新闻已达上限（{limit}），请先删除旧新闻',
    en: 'This source already holds the most news items it can ({limit}); delete an old one first',
    'zh-TW': '此源的新聞已達上限（{limit}），請先刪除舊新聞',
    vi: 'Nguồn này đã có số tin tối đa ({limit}); hãy xóa một tin cũ trước',
    ar: 'يحتوي هذا المصدر بالفعل على الحد الأقصى من الأخبار ({limit})؛ احذف خبرًا قديمًا أولًا',
    es: 'Esta fuente ya tiene el máximo de noticias ({limit}); elimine una antigua primero',
    ru: 'В источнике уже максимум новостей ({limit}); сначала удалите старую',
  },
});
