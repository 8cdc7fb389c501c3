/** The reseller console: a web app in the browser, a client of the routes above and nothing more. */
import type { RouteDefinition } from './definitions';

/**
 * `GET /console` (the app's page) and every file under it (`/console/assets/…`, content-hashed). Public: the
 * files hold no data; every screen signs in and calls the API like any script would.
 */
export const consoleRoute = {
  function: 'console',
  methods: ['GET'],
  path: '/console',
  subpaths: true,
  files: 'web/dist',
  auth: 'none',
  rateLimit: null,
  envelope: 'page',
  description: "The reseller console's web app (its page and its content-hashed files); every screen calls the public API",
  data: {},
} as const satisfies RouteDefinition;
