import { defineMessages } from '../define-messages';

/**
 * A news item that is not there: also what the shared chain answers for a malformed news id in a path, so
 * every function carries it (it is short).
 */
export const newsLookupMessages = defineMessages({
  news_not_found: {
    zh: '该源中没有此新闻',
    en: 'No such news item in this source',
    'zh-TW': '此源中沒有這則新聞',
    vi: 'Không có tin này trong nguồn',
    ar: 'لا يوجد خبر كهذا في هذا المصدر',
    es: 'No existe esa noticia en esta fuente',
    ru: 'В этом источнике нет такой новости',
  },
});
