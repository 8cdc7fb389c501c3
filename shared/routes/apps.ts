/** The routes of a source's apps: drafts, publishing and the list. */
import type { RouteDefinition } from './definitions';

export const publishAppRoute = {
  function: 'publish-app',
  methods: ['POST'],
  path: '/api/appstore/manage/sources/{source_id}/apps/{app_id}/publish',
  auth: 'bearer',
  rateLimit: 30,
  // The source, the app and the subscription read while the count is made; the IPA's origin and the transaction wait for it.
  limitAlongside: true,
  envelope: 'management',
  description: 'Publish an app draft',
  data: { read: ['subscriptions', 'plans'], write: ['sources', 'apps', 'ipaInspections', 'sourceFeeds'] },
} as const satisfies RouteDefinition;

export const createAppRoute = {
  function: 'create-app',
  methods: ['POST'],
  path: '/api/appstore/manage/sources/{source_id}/apps',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Create an app draft',
  data: { read: ['subscriptions', 'plans'], write: ['sources', 'apps', 'ipaInspections'] },
} as const satisfies RouteDefinition;

export const updateAppRoute = {
  function: 'update-app',
  methods: ['PATCH'],
  path: '/api/appstore/manage/sources/{source_id}/apps/{app_id}',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Edit an app (a published one: its presentation only)',
  data: { read: ['sources', 'subscriptions', 'plans'], write: ['apps', 'ipaInspections', 'sourceFeeds'] },
} as const satisfies RouteDefinition;

export const unpublishAppRoute = {
  function: 'unpublish-app',
  methods: ['POST'],
  path: '/api/appstore/manage/sources/{source_id}/apps/{app_id}/unpublish',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Take a published app out of the feed (it becomes a draft)',
  data: { write: ['sources', 'apps', 'sourceFeeds'] },
} as const satisfies RouteDefinition;

export const listAppsRoute = {
  function: 'list-apps',
  methods: ['GET'],
  path: '/api/appstore/manage/sources/{source_id}/apps',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "A source's apps, drafts and published, cursor-paginated, optionally by status",
  data: { read: ['sources', 'apps'] },
} as const satisfies RouteDefinition;

export const deleteAppRoute = {
  function: 'delete-app',
  methods: ['DELETE'],
  path: '/api/appstore/manage/sources/{source_id}/apps/{app_id}',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Delete a draft (a published app must be unpublished first)',
  data: { read: ['subscriptions'], write: ['sources', 'apps', 'linkHealth'] },
} as const satisfies RouteDefinition;
