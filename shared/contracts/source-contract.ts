/** What the source management routes take and answer, for the OpenAPI document. */
import * as z from 'zod/mini';
import { describe } from './describe';


export const sourceSettingsData = z.object({
  source_id: z.string(),
  name: z.string(),
  source_url: describe(z.string(), '/api/rjy/<source_id>/appstore'),
  message: z.string(),
  encrypt_enabled: z.union([z.literal(0), z.literal(1)]),
  app_count: z.number(),
});

export const publishedAppData = z.object({
  id: z.number(),
  source_id: z.string(),
  name: z.string(),
  version: z.string(),
  download_url: z.string(),
  status: z.number(),
  publish_status: z.string(),
});

/** The path's own parameters may be repeated in the query or body; they must then match the path. */
export const publishRequest = z.object({
  source_id: describe(z.optional(z.string()), 'Must match the path when given'),
  app_id: describe(z.optional(z.union([z.number(), z.string()])), 'Must match the path when given'),
});
