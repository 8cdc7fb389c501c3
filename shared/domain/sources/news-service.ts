/**
 * A source's news: what AltStore, SideStore and Feather show on the source's page. The owner lists, posts and
 * deletes items; the feed shows them newest first, after the announcement (`message`).
 */
import { appendNews, removeNewsAt } from '../../db/repositories/news-repository';
import { DomainError } from '../errors';
import { randomId } from '../../ids';
import type { Actor } from '../../records/source';
import { ownedSource } from './source-lookup';
import { SOURCE_FORMAT_LIMITS, type NewsItem } from '../../records/source-format';

/** What the owner posts; `date` defaults to the moment it is posted. */
export type NewsInput = Omit<NewsItem, 'news_id' | 'created_at' | 'date'> & { date?: number | undefined };

const sourceNotFound = () => new DomainError('source_not_found', 'source_not_found');

/** What the news API shows of an item: its fields, times in Unix seconds. */
export function newsView(item: NewsItem): Record<string, unknown> {
  return {
    news_id: item.news_id,
    title: item.title,
    caption: item.caption,
    date: item.date,
    image_url: item.image_url ?? null,
    url: item.url ?? null,
    app_id: item.app_id ?? null,
    tint_color: item.tint_color ?? null,
    notify: item.notify ?? false,
    created_at: item.created_at,
  };
}

const newestFirst = (a: NewsItem, b: NewsItem) => b.date - a.date || b.created_at - a.created_at;

export async function listNews(actor: Actor, sourceId: string) {
  const source = await ownedSource(actor, sourceId);
  return { source_id: source.source_id, news: [...(source.news ?? [])].sort(newestFirst).map(newsView), limit: SOURCE_FORMAT_LIMITS.news };
}

export async function postNews(actor: Actor, sourceId: string, input: NewsInput, now: number) {
  const item: NewsItem = Object.fromEntries(
    Object.entries({ ...input, news_id: randomId('n', 10), date: input.date ?? now, created_at: now }).filter(([, v]) => v !== undefined),
  ) as unknown as NewsItem;
  const outcome = await appendNews(actor, sourceId, item, SOURCE_FORMAT_LIMITS.news);
  if (outcome === 'not_owned') throw sourceNotFound();
  if (outcome === 'full') {
    const limit = SOURCE_FORMAT_LIMITS.news;
    throw new DomainError('conflict', 'news_full', { params: { limit }, data: { limit } });
  }
  return newsView(item);
}

/** Deletes one item; a concurrent deletion that shifted the list makes it look again (a few times at most). */
export async function deleteNews(actor: Actor, sourceId: string, newsId: string) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const source = await ownedSource(actor, sourceId);
    const index = (source.news ?? []).findIndex((item) => item.news_id === newsId);
    if (index < 0) throw new DomainError('news_not_found', 'news_not_found');
    if (await removeNewsAt(actor, sourceId, index, newsId)) return { source_id: sourceId, news_id: newsId, deleted: true };
  }
  throw new DomainError('conflict', 'app_changed');
}
