/** The public side of a source: its feed, the placeholder icon and the download gate. */
import type { RouteDefinition } from './definitions';

export const sourceFeedRoute = {
  function: 'source-feed',
  methods: ['GET', 'POST'],
  path: '/api/rjy/{source_id}/appstore',
  auth: 'none',
  rateLimit: null,
  // A request with a `code` is an unlock (GET or POST), any other POST a misuse report, the rest feed reads.
  operations: [
    { name: 'unlock', param: 'code', envelope: 'unlock' },
    { name: 'report', method: 'POST' },
    { name: 'read' },
  ],
  ipLimits: [
    { operation: 'read', limit: 600, window: 'minute', perPathParam: 'source_id', alongside: true },
    { operation: 'report', limit: 60, window: 'minute', perPathParam: 'source_id' },
    // Per source, whoever asks (first, so its refusal is not counted as a failed unlock): rotating IPv6
    // addresses cannot brute-force a code or flood the monitor.
    { operation: 'unlock', limit: 120, window: 'minute', perPathParam: 'source_id', everyone: true },
    // Failures per IP per source, in a short window: behind carrier NAT a neighbour's typos must not lock a
    // paying customer out for long. Brute force across windows and addresses stays bounded by the per-source
    // ceiling above and codes of at least 8 characters.
    { operation: 'unlock', limit: 10, window: '10 minutes', perPathParam: 'source_id', counts: 'failures' },
    { operation: 'report', limit: 120, window: 'minute', perPathParam: 'source_id', everyone: true },
  ],
  envelope: 'feed',
  description: 'Public app feed of a source; also unlocks with a code and takes misuse reports',
  // sources: written once to give a source created before signed links its link secret and feed key.
  data: { read: ['apps', 'devices', 'subscriptions', 'sourceFeeds', 'disabledDevices', 'users'], write: ['sources', 'sourceProtection'] },
} as const satisfies RouteDefinition;

export const sourceIconRoute = {
  function: 'source-icon',
  methods: ['GET'],
  path: '/api/rjy/{source_id}/icon.png',
  auth: 'none',
  rateLimit: null,
  envelope: 'feed',
  description: 'The built-in icon of the placeholder app a blocked device sees',
  data: {},
} as const satisfies RouteDefinition;

export const downloadGateRoute = {
  function: 'download-gate',
  methods: ['GET'],
  path: '/api/rjy/{source_id}/apps/{app_id}/download',
  auth: 'none',
  rateLimit: null,
  ipLimits: [{ limit: 600, window: 'minute', perPathParam: 'source_id', alongside: true }],
  envelope: 'feed',
  description: 'Check a signed download link and redirect to the build',
  data: { read: ['sources', 'apps', 'devices', 'sourceProtection', 'subscriptions', 'disabledDevices'] },
} as const satisfies RouteDefinition;
