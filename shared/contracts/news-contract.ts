import * as z from 'zod/mini';
import { describe } from './describe';

/** A news item as the news API shows it. */
export const newsItemData = z.object({
  news_id: z.string(),
  title: z.string(),
  caption: z.string(),
  date: describe(z.number(), 'Unix seconds'),
  image_url: z.nullable(z.string()),
  url: z.nullable(z.string()),
  app_id: describe(z.nullable(z.string()), 'Bundle identifier'),
  tint_color: z.nullable(z.string()),
  notify: z.boolean(),
  created_at: describe(z.number(), 'Unix seconds'),
});
