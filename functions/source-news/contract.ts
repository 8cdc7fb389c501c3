import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import type { FunctionContract } from '../../shared/contracts/function-contract';
import { newsItemData } from '../../shared/contracts/news-contract';

export const contract: FunctionContract = {
  request: z.object({
    title: describe(z.optional(z.string()), 'POST (required): 1–100 characters'),
    caption: describe(z.optional(z.string()), 'POST (required): 1–1000 characters; line breaks allowed'),
    date: describe(z.optional(z.union([z.number(), z.string()])), 'POST: Unix seconds or ISO 8601 with a zone (2026-11-23T08:00:00Z), 2000–2100; default now'),
    image_url: describe(z.optional(z.string()), 'POST: absolute http(s) URL of an image, up to 2048 characters'),
    url: describe(z.optional(z.string()), 'POST: absolute http(s) URL the item opens, up to 2048 characters'),
    app_id: describe(z.optional(z.string()), "POST: bundle identifier of an app of the source; the feed names it only while that app is listed"),
    tint_color: describe(z.optional(z.string()), 'POST: six hex digits (a leading # is dropped)'),
    notify: describe(z.optional(z.union([z.literal(0), z.literal(1)])), 'POST: 1 asks AltStore to show a notification'),
  }),
  response: z.union([
    z.object({ source_id: z.string(), news: z.array(newsItemData), limit: describe(z.number(), 'Most items a source holds (20)') }),
    newsItemData,
  ]),
  notes:
    "GET: the source's news items, newest first. POST: posts one (at most 20 per source: 40003 news_full). The feed lists them as news, after the announcement (the source's message), for AltStore, SideStore and Feather.",
};
