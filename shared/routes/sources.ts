/** The routes of a source itself: its settings, its news, the health of its links. */
import type { RouteDefinition } from './definitions';

export const updateSourceRoute = {
  function: 'update-source',
  methods: ['PATCH'],
  path: '/api/appstore/manage/sources/{source_id}',
  auth: 'bearer',
  rateLimit: 30,
  // The source is read with the token; the count rides in the transaction that changes it.
  countInTransaction: true,
  envelope: 'management',
  description: 'Update source settings',
  data: { read: ['subscriptions', 'plans'], write: ['sources'] },
} as const satisfies RouteDefinition;

export const sourceHealthRoute = {
  function: 'source-health',
  methods: ['GET'],
  path: '/api/appstore/manage/sources/{source_id}/health',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Link health of a source: the last probe of each published app',
  data: { read: ['sources', 'apps', 'linkHealth'] },
} as const satisfies RouteDefinition;

export const sourceHealthCheckRoute = {
  function: 'source-health-check',
  methods: ['POST'],
  path: '/api/appstore/manage/sources/{source_id}/health/check',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Probe the download links of a source now (at most 25 apps or 20 s per call)',
  data: { read: ['sources', 'apps'], write: ['linkHealth'] },
  // 20 s of probing, then any alert deliveries; API Gateway gives up at 29 s.
  timeoutSeconds: 28,
} as const satisfies RouteDefinition;

export const sourcesRoute = {
  function: 'sources',
  methods: ['GET', 'POST'],
  path: '/api/appstore/manage/sources',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "List the caller's sources on this site (GET, cursor-paginated) or create one within the plan (POST)",
  data: { write: ['sources', 'subscriptions'] },
} as const satisfies RouteDefinition;

export const sourceDetailRoute = {
  function: 'source-detail',
  methods: ['GET', 'DELETE'],
  path: '/api/appstore/manage/sources/{source_id}',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Read every setting of a source (GET) or delete it with its apps, codes, block list and health records (DELETE)',
  data: { write: ['sources', 'subscriptions', 'sourcePurges', 'apps', 'sourceProtection', 'linkHealth'] },
} as const satisfies RouteDefinition;

export const sourceNewsRoute = {
  function: 'source-news',
  methods: ['GET', 'POST'],
  path: '/api/appstore/manage/sources/{source_id}/news',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "List a source's news items (GET) or post one (POST)",
  data: { write: ['sources'] },
} as const satisfies RouteDefinition;

export const newsEntryRoute = {
  function: 'news-entry',
  methods: ['DELETE'],
  path: '/api/appstore/manage/sources/{source_id}/news/{news_id}',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Delete a news item of a source',
  data: { write: ['sources'] },
} as const satisfies RouteDefinition;
