import { defineMessages } from '../define-messages';

/** The plan's limits: sources per owner, apps per source. */
export const quotaMessages = defineMessages({
  quota_exceeded: {
    zh: '已达到套餐对该源的上限（{limit}）',
    en: "The plan's limit for this source is reached ({limit})",
    'zh-TW': '已達到方案對此源的上限（{limit}）',
    vi: 'Đã đạt giới hạn của gói cho nguồn này ({limit})',
    ar: 'تم بلوغ حد الخطة لهذا المصدر ({limit})',
    es: 'Se alcanzó el límite del plan para esta fuente ({limit})',
    ru: 'Достигнут лимит тарифа для этого источника ({limit})',
  },
  sources_quota_exceeded: {
    zh: '已达到套餐的源数量上限（{limit}）',
    en: "The plan's limit of sources is reached ({limit})",
    'zh-TW': '已達到方案的源數量上限（{limit}）',
    vi: 'Đã đạt giới hạn số nguồn của gói ({limit})',
    ar: 'تم بلوغ حد المصادر في الخطة ({limit})',
    es: 'Se alcanzó el límite de fuentes del plan ({limit})',
    ru: 'Достигнут лимит источников по тарифу ({limit})',
  },
});
