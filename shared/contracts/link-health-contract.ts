/** What the link-health routes take and answer, for the OpenAPI document. */
import * as z from 'zod/mini';
import { describe } from './describe';

const appHealth = z.object({
  app_id: z.number(),
  name: z.string(),
  version: z.string(),
  url: describe(z.string(), 'The download URL probed'),
  health: describe(z.enum(['ok', 'failing', 'unknown']), 'unknown: not probed yet (or not since its URL changed)'),
  last_status: describe(z.number(), 'HTTP status of the last probe; 0 when none came or never probed'),
  last_checked: describe(z.number(), 'Unix seconds; 0 when never probed'),
  failures: describe(z.number(), 'Consecutive failed probes'),
  file_changed: describe(z.boolean(), 'The last probe saw a different file (length, ETag or Last-Modified) than the IPA inspected at publish: unpublish and publish again to re-inspect it'),
});

export const sourceHealthData = z.object({
  source_id: z.string(),
  apps: describe(z.array(appHealth), 'Every published app of the source'),
});

export const healthCheckData = z.object({
  source_id: z.string(),
  checked: describe(z.number(), 'Apps probed by this call (at most 25)'),
  remaining: describe(z.number(), 'Published apps this call left unprobed; a later call takes them first'),
  apps: describe(z.array(appHealth), 'Every published app of the source'),
});

/** The path's source id may be repeated in the query or body; it must then match the path. */
export const sourceEchoRequest = z.object({
  source_id: describe(z.optional(z.string()), 'Must match the path when given'),
});
