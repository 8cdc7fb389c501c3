/**
 * The soak's traffic: weighted actions, each one user's request (or two) to one route. Workers pick an action
 * by weight and a user at random, so every route runs concurrently with every other from many users of two
 * tenants.
 *
 * Extending the mix: append a `SoakAction` to `actions` below (a name, a weight, the route label it sends
 * through `client.send`, and `run`). Keep what it learns in `SoakState` if a later check needs it.
 * A new capability appends its action(s) here (and an invariant in invariants.ts, if it promises something);
 * the report lists any route of the route table that the mix never sent, so a new route without an action
 * shows up at once.
 */
import { randomInt } from 'node:crypto';
import * as routeTable from '../../shared/routes';
import type { SoakClient, Answer } from './client';
import { capture, redeem, tryEndedSession, visit, type CustomerState } from './customers';
import { SOAK_PASSWORD, SOAK_STOREFRONT, type SoakUser, type SoakWorld } from './harness';
import type { WebhookReceiver } from './webhooks';

/** `METHOD /path/{param}`: how the report names a route. */
export const label = (method: string, route: { path: string }) => `${method} ${route.path}`;

/** A certificate the mix added and follows: whose it is, and the enabled state its last status answer reported. */
export interface TrackedDevice {
  kid: string;
  userId: string;
  udid: string;
  /** What the last answered status request left; `unknown` after one whose answer was lost. */
  expected: boolean | 'unknown';
  /** The certificate's kid as status answers name it (an add may have answered with a reservation id). */
  certificate?: string;
  busy: boolean;
}

export interface SoakState {
  world: SoakWorld;
  devices: Map<string, TrackedDevice>;
  /** Per source: unlock codes created and not yet redeemed. */
  unlockCodes: Map<string, string[]>;
  /** Per source: download links seen in feeds (path and query), for gate requests. */
  links: Map<string, string[]>;
  /** Per source: links from feeds read with the UDID of a device the mix added and last saw enabled. */
  deviceLinks?: Map<string, string[]>;
  /** Per source: app ids the mix created. */
  apps: Map<string, number[]>;
  versionCounter: number;
  /** Per source: device keys handed out with device feed URLs (what a device proves itself with). */
  deviceKeys?: Map<string, { udid: string; key: string }[]>;
  /** The customers' phones, their sessions and what they downloaded. */
  customers: CustomerState;
  /** Where the users' webhooks deliver, and the secrets they were shown. */
  receiver: WebhookReceiver;
  /** Per user: the agents the mix created under it. */
  agents?: Map<string, string[]>;
  /** Per user: the Apple account the mix connected with its own key (a connection in flight is ''). */
  ownAccounts?: Map<string, string>;
  /** Per user: the console session the mix signed in (its cookie and CSRF token); '' while a sign-in is in flight. */
  consoleSessions?: Map<string, { cookie: string; csrf: string } | ''>;
  /** Set during the top-up rounds after the traffic: the round's number (see `way`). */
  topUpRound?: number;
}

export interface SoakAction {
  name: string;
  weight: number;
  run(client: SoakClient, user: SoakUser, state: SoakState): Promise<unknown>;
}

export const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)]!;
/**
 * Which of an action's `n` ways it goes: at random in the traffic; in top-up round r, way r mod n, so the
 * rounds after a short (or paced) run try every way of every action within as many rounds as the most ways
 * an action has, instead of hoping a rare one is drawn.
 */
const way = (s: SoakState, n: number) => (s.topUpRound === undefined ? randomInt(n) : s.topUpRound % n);
const chance = (p: number) => Math.random() < p;
/** A passer-by's address (127.2.x.y): requests without a session or a device come from many callers, not one. */
const strangerIp = () => `127.2.${randomInt(250)}.${randomInt(250) + 2}`;

function tenantUdid(state: SoakState, user: SoakUser): string {
  return pick(state.world.tenants.find((t) => t.tenantId === user.tenantId)!.udids);
}

function devicesOf(state: SoakState, user: SoakUser): TrackedDevice[] {
  return [...state.devices.values()].filter((d) => d.userId === user.userId);
}

const managePath = (user: SoakUser, rest = '') => `/api/appstore/manage/sources/${user.sourceId}${rest}`;
const bearer = (user: SoakUser) => ({ host: user.host, headers: { Authorization: `Bearer ${user.token}` } });

/** An instant add's answer names its certificate (a review add's, its reservation): the mix follows it for status toggles. */
function track(state: SoakState, user: SoakUser, udid: string, answer: Answer, instant: boolean): void {
  const kid = answer.body.data?.id;
  if (instant && answer.body.code === 1 && typeof kid === 'string' && !state.devices.has(kid) && answer.body.data?.mobileprovision) {
    state.devices.set(kid, { kid, userId: user.userId, udid, expected: true, busy: false });
  }
}

async function addDevice(client: SoakClient, user: SoakUser, state: SoakState, params: Record<string, string>, route: { path: string } = routeTable.addDeviceRoute): Promise<Answer> {
  const udid = params.udid ?? tenantUdid(state, user);
  const body = { token: user.token, udid, ...params };
  const answer = chance(0.5)
    ? await client.send(label('POST', route), 'POST', route.path, { host: user.host, json: body })
    : await client.send(label('GET', route), 'GET', `${route.path}?${new URLSearchParams(body).toString()}`, { host: user.host });
  track(state, user, udid, answer, route !== routeTable.addDeviceLegacyReviewRoute && params.mode !== 'review');
  return answer;
}

async function readFeed(client: SoakClient, user: SoakUser, state: SoakState, udid: string | undefined, enabledDevice = false): Promise<void> {
  const route = routeTable.sourceFeedRoute;
  const path = route.path.replace('{source_id}', user.sourceId) + (udid ? `?udid=${udid}` : '');
  const answer = await client.send(label('GET', route), 'GET', path, { host: user.host });
  const apps = (answer.body as { apps?: { downloadURL?: string; lock?: string | number }[] }).apps ?? [];
  // Gate links only: an origin URL (an unprotected source's unlocked app) is the reseller's host, not a route.
  const gate = /^\/api\/rjy\/[^/]+\/apps\/\d+\/download$/;
  const linkOf = (a: { downloadURL?: string }) => (a.downloadURL ? [new URL(a.downloadURL)].filter((u) => gate.test(u.pathname)) : []);
  const links = apps.flatMap(linkOf).map((u) => `${u.pathname}${u.search}`);
  if (links.length) state.links.set(user.sourceId, links.slice(0, 10));
  // For a device's own downloads: the apps the feed shows it unlocked (a locked one is refused until unlocked).
  const open = apps.filter((a) => String(a.lock ?? '0') !== '1').flatMap(linkOf).map((u) => `${u.pathname}${u.search}`);
  if (open.length && enabledDevice) (state.deviceLinks ??= new Map()).set(user.sourceId, open.slice(0, 20));
}

/**
 * Points the user's webhook at the soak's receiver and notes the signing secret the answer shows (the first
 * set, or a rotation). An answer lost to a fault may have set a secret the soak never saw: the next set
 * rotates it.
 */
export async function setWebhook(c: SoakClient, u: SoakUser, s: SoakState): Promise<Answer> {
  const hook = routeTable.userWebhookRoute;
  const uncertain = (s.receiver.secretsUncertain.get(u.userId) ?? 0) === Infinity;
  const rotate = uncertain || !s.receiver.secrets.has(u.userId);
  const answer = await c.send(label('PUT', hook), 'PUT', hook.path, { ...bearer(u), json: { url: s.receiver.hookUrl(u.userId), ...(rotate ? { rotate_secret: true } : {}) } });
  const secret = answer.body.data?.secret;
  if (typeof secret === 'string') {
    s.receiver.noteSecret(u.userId, secret);
    // Deliveries signed with the lost secret may still be on their way for a moment.
    if (uncertain) s.receiver.secretsUncertain.set(u.userId, Date.now() + 15_000);
  }
  if (answer.status === 0 || answer.status >= 500) s.receiver.secretsUncertain.set(u.userId, Infinity);
  return answer;
}

export const actions: SoakAction[] = [
  { name: 'instant add', weight: 10, run: (c, u, s) => addDevice(c, u, s, { warranty: String(pick([0, 1, 2, 3])) }) },
  { name: 'review add', weight: 3, run: (c, u, s) => addDevice(c, u, s, { mode: 'review' }) },
  // On the shared UDIDs: Apple may already have one as an iPhone (or register it as an iPad before an iPhone add).
  { name: 'iPad add', weight: 2, run: (c, u, s) => addDevice(c, u, s, { deviceType: 'ipad', ...(chance(0.3) ? { mode: 'review' } : {}) }) },
  { name: 'legacy instant add', weight: 3, run: (c, u, s) => addDevice(c, u, s, {}, routeTable.addDeviceLegacyInstantRoute) },
  { name: 'legacy review add', weight: 2, run: (c, u, s) => addDevice(c, u, s, {}, routeTable.addDeviceLegacyReviewRoute) },
  {
    name: 'coded add',
    weight: 2,
    run: (c, u, s) => {
      const code = u.codes.pop();
      return code ? addDevice(c, u, s, { code }) : addDevice(c, u, s, {});
    },
  },
  { name: 'forced add', weight: 2, run: (c, u, s) => addDevice(c, u, s, { force: '1', warranty: '1' }) },
  {
    name: 'repeated add',
    weight: 3,
    run: async (c, u, s) => {
      const known = devicesOf(s, u);
      const udid = known.length ? pick(known).udid : tenantUdid(s, u);
      // The same add twice at once: the lock makes them one.
      await Promise.all([addDevice(c, u, s, { udid }), addDevice(c, u, s, { udid })]);
    },
  },
  {
    name: 'status toggle',
    weight: 6,
    run: async (c, u, s) => {
      const device = devicesOf(s, u).find((d) => !d.busy);
      if (!device) return;
      device.busy = true;
      try {
        const action = pick(['toggle', 'enable', 'disable', '']);
        const route = routeTable.deviceStatusRoute;
        const params = { token: u.token, kid: device.kid, action };
        const answer = chance(0.5)
          ? await c.send(label('POST', route), 'POST', route.path, { host: u.host, json: params })
          : await c.send(label('GET', route), 'GET', `${route.path}?${new URLSearchParams(params).toString()}`, { host: u.host });
        if (answer.body.code === 1 && typeof answer.body.data?.enabled === 'boolean') {
          device.expected = answer.body.data.enabled;
          // A review add answers with its reservation id; the status answer names the certificate itself.
          if (typeof answer.body.data.kid === 'string') device.certificate = answer.body.data.kid;
        }
        // Not this user's certificate after all: not followed any more.
        else if (answer.body.code === 100) s.devices.delete(device.kid);
        // Refused (limited, unknown): nothing changed. No answer: it may or may not have changed.
        else if (answer.status === 0 || answer.status >= 500) device.expected = 'unknown';
      } finally {
        device.busy = false;
      }
    },
  },
  {
    name: 'device info',
    weight: 5,
    run: (c, u, s) => {
      const known = devicesOf(s, u);
      const route = routeTable.deviceInfoRoute;
      const selector: Record<string, string> = known.length && chance(0.7) ? { kid: pick(known).kid } : { udid: tenantUdid(s, u) };
      return chance(0.5)
        ? c.send(label('GET', route), 'GET', `${route.path}?${new URLSearchParams({ token: u.token, ...selector }).toString()}`, { host: u.host })
        : c.send(label('POST', route), 'POST', route.path, { host: u.host, json: { token: u.token, ...selector } });
    },
  },
  {
    name: 'feed read with a UDID',
    weight: 6,
    run: (c, u, s) => {
      const known = devicesOf(s, u);
      const device = known.length && chance(0.7) ? pick(known) : undefined;
      return readFeed(c, u, s, device?.udid ?? tenantUdid(s, u), device?.expected === true);
    },
  },
  { name: 'feed read', weight: 3, run: (c, u, s) => readFeed(c, u, s, undefined) },
  {
    name: 'gate download',
    weight: 4,
    run: async (c, u, s) => {
      // Mostly a link a device the mix added (and last saw enabled) was given: the gate lets it through unless
      // the app is locked, the UDID blocked or the device since disabled; otherwise any link seen.
      const deviceLinks = s.deviceLinks?.get(u.sourceId);
      const links = deviceLinks?.length && chance(0.7) ? deviceLinks : s.links.get(u.sourceId);
      if (!links?.length) return readFeed(c, u, s, tenantUdid(s, u));
      return c.send(label('GET', routeTable.downloadGateRoute), 'GET', pick(links), { host: u.host });
    },
  },
  {
    name: 'create, edit and publish an app',
    weight: 2,
    run: async (c, u, s) => {
      const n = ++s.versionCounter;
      const created = await c.send(label('POST', routeTable.createAppRoute), 'POST', managePath(u, '/apps'), {
        ...bearer(u),
        json: { name: `Soak App ${n % 3}`, version: `1.${n}.0`, download_url: `${s.world.downloadUrl}/mix-app-${n}.ipa`, bundle_identifier: `com.example.soak.app${n % 3}`, developer_name: 'Soak', size: 1_048_576, icon_url: `${s.world.downloadUrl}/icon-${n}.png`, description: 'A soak app', lock: n % 4 === 0 ? 1 : 0 },
      });
      const id = created.body.data?.id;
      if (typeof id !== 'number') return;
      s.apps.set(u.sourceId, [...(s.apps.get(u.sourceId) ?? []), id].slice(-20));
      await c.send(label('PATCH', routeTable.updateAppRoute), 'PATCH', managePath(u, `/apps/${id}`), { ...bearer(u), json: { description: `Build ${n}` } });
      await c.send(label('POST', routeTable.publishAppRoute), 'POST', managePath(u, `/apps/${id}/publish`), bearer(u));
    },
  },
  {
    name: 'publish or unpublish a known app',
    weight: 2,
    run: (c, u, s) => {
      const id = pick([1, 2, 3, ...(s.apps.get(u.sourceId) ?? [])]);
      return chance(0.3)
        ? c.send(label('POST', routeTable.unpublishAppRoute), 'POST', managePath(u, `/apps/${id}/unpublish`), bearer(u))
        : c.send(label('POST', routeTable.publishAppRoute), 'POST', managePath(u, `/apps/${id}/publish`), bearer(u));
    },
  },
  {
    name: 'source update',
    weight: 2,
    run: (c, u) =>
      // Mostly protected links (the default): every download then goes through the gate.
      c.send(label('PATCH', routeTable.updateSourceRoute), 'PATCH', managePath(u), { ...bearer(u), json: { name: `Soak source ${randomInt(1000)}`, open_black: pick([0, 1]), encrypt_enabled: pick([0, 1, 1]) } }),
  },
  {
    name: 'unlock codes: create or list',
    weight: 2,
    run: async (c, u, s) => {
      if (chance(0.5)) return c.send(label('GET', routeTable.unlockCodesRoute), 'GET', managePath(u, '/unlock-codes'), bearer(u));
      const answer = await c.send(label('POST', routeTable.unlockCodesRoute), 'POST', managePath(u, '/unlock-codes'), { ...bearer(u), json: { count: 2, days: 30 } });
      const codes = ((answer.body.data?.codes as { code: string }[] | undefined) ?? []).map((x) => x.code);
      s.unlockCodes.set(u.sourceId, [...(s.unlockCodes.get(u.sourceId) ?? []), ...codes].slice(-20));
    },
  },
  {
    name: 'unlock with a code',
    weight: 2,
    run: (c, u, s) => {
      const codes = s.unlockCodes.get(u.sourceId) ?? [];
      const code = codes.length ? codes.splice(randomInt(codes.length), 1)[0]! : 'NOTACODE1234';
      const route = routeTable.sourceFeedRoute;
      return c.send(`${label('GET', route)} (unlock)`, 'GET', `${route.path.replace('{source_id}', u.sourceId)}?${new URLSearchParams({ udid: tenantUdid(s, u), code }).toString()}`, { host: u.host });
    },
  },
  {
    name: 'block report',
    weight: 1,
    run: (c, u, s) => {
      const route = routeTable.sourceFeedRoute;
      // A report counts only from a device proving itself (its feed URL's key) and as JSON; now and then one
      // that does not (a form, or no key), which is refused.
      const keys = s.deviceKeys?.get(u.sourceId) ?? [];
      const proven = keys.length && chance(0.8) ? pick(keys) : undefined;
      const value = Buffer.from(`${proven?.udid ?? tenantUdid(s, u)}|`).toString('base64');
      const path = route.path.replace('{source_id}', u.sourceId) + (proven ? `?dk=${proven.key}` : '');
      return c.send(`${label('POST', route)} (report)`, 'POST', path, chance(0.8) ? { host: u.host, json: { value } } : { host: u.host, form: { value } });
    },
  },
  {
    name: 'block list and entries',
    weight: 2,
    run: async (c, u, s) => {
      const entry = routeTable.blocklistEntryRoute;
      const udid = tenantUdid(s, u);
      if (chance(0.4)) return c.send(label('GET', routeTable.listBlocklistRoute), 'GET', managePath(u, '/blocklist'), bearer(u));
      const method = chance(0.5) ? 'PUT' : 'DELETE';
      return c.send(label(method, entry), method, managePath(u, `/blocklist/${udid}`), bearer(u));
    },
  },
  {
    name: 'link health',
    weight: 1,
    run: (c, u) =>
      chance(0.8)
        ? c.send(label('GET', routeTable.sourceHealthRoute), 'GET', managePath(u, '/health'), bearer(u))
        : c.send(label('POST', routeTable.sourceHealthCheckRoute), 'POST', managePath(u, '/health/check'), bearer(u)),
  },
  { name: 'blocked icon', weight: 1, run: (c, u) => c.send(label('GET', routeTable.sourceIconRoute), 'GET', routeTable.sourceIconRoute.path.replace('{source_id}', u.sourceId), { host: u.host }) },
  // The console's page or one of its files (the same route): what a reseller's browser fetches before signing in.
  {
    name: 'console',
    weight: 1,
    run: (c, u) => c.send(label('GET', routeTable.consoleRoute), 'GET', chance(0.5) ? routeTable.consoleRoute.path : `${routeTable.consoleRoute.path}/favicon.svg`, { host: u.host }),
  },
  // Subscriptions: the second tenant sells a plan (its users hold one from the start); a purchase renews it from
  // the balance, which the balance invariant counts through the ledger's subscription entries. The first
  // tenant sells none: its purchases are refused.
  {
    name: 'subscription: read or buy',
    weight: 1,
    run: (c, u, s) => {
      const route = routeTable.subscriptionRoute;
      const plan = s.world.plans.get(u.tenantId);
      return chance(0.6) || !plan
        ? c.send(label('GET', route), 'GET', route.path, bearer(u))
        : c.send(label('POST', route), 'POST', route.path, { ...bearer(u), json: { plan } });
    },
  },
  {
    name: 'device list',
    weight: 3,
    run: (c, u, s) => {
      const route = routeTable.deviceListRoute;
      const filter = pick<Record<string, string>>([{}, { udid: tenantUdid(s, u) }, { zt: 'normal' }, { enabled: '1', limit: '5' }]);
      return chance(0.5)
        ? c.send(label('GET', route), 'GET', `${route.path}?${new URLSearchParams({ token: u.token, ...filter }).toString()}`, { host: u.host })
        : c.send(label('POST', route), 'POST', route.path, { host: u.host, json: { token: u.token, ...filter } });
    },
  },
  {
    name: 'balance, ledger or dashboard read',
    weight: 4,
    run: (c, u) => {
      if (chance(0.25)) return c.send(label('GET', routeTable.userStatsRoute), 'GET', routeTable.userStatsRoute.path, bearer(u));
      const route = chance(0.5) ? routeTable.userBalanceRoute : routeTable.userLedgerRoute;
      const query: Record<string, string> = route === routeTable.userLedgerRoute ? { token: u.token, limit: '20' } : { token: u.token };
      return chance(0.5)
        ? c.send(label('GET', route), 'GET', `${route.path}?${new URLSearchParams(query).toString()}`, { host: u.host })
        : c.send(label('POST', route), 'POST', route.path, { host: u.host, json: query });
    },
  },
  {
    name: 'UDID capture: profiles, install page, a device answer, the captures list',
    weight: 2,
    run: (c, u, s) => {
      const feedPath = (route: { path: string }) => route.path.replace('{source_id}', u.sourceId);
      switch (way(s, 5)) {
        case 0:
          return c.send(label('GET', routeTable.sourceUdidProfileRoute), 'GET', feedPath(routeTable.sourceUdidProfileRoute), { host: u.host });
        case 1:
          return c.send(label('GET', routeTable.udidProfileRoute), 'GET', `${routeTable.udidProfileRoute.path}?${new URLSearchParams({ return: SOAK_STOREFRONT, user: u.userId }).toString()}`, { host: u.host });
        case 2:
          return c.send(label('GET', routeTable.installPageRoute), 'GET', feedPath(routeTable.installPageRoute), { host: u.host });
        case 3:
          // Not a signed device answer: refused, and nothing is captured.
          return c.send(label('POST', routeTable.udidCallbackRoute), 'POST', routeTable.udidCallbackRoute.path, { host: u.host, from: strangerIp(), json: { udid: 'not-a-device-answer' } });
        default: {
          const route = routeTable.udidCapturesRoute;
          return chance(0.5)
            ? c.send(label('GET', route), 'GET', `${route.path}?token=${u.token}`, { host: u.host })
            : c.send(label('POST', route), 'POST', route.path, { host: u.host, json: { token: u.token } });
        }
      }
    },
  },
  {
    // Without a proven device's session every customer action is refused: the page asks for the UDID,
    // download and actions 401. From many passers-by, so the per-IP limits are not one address's.
    name: "the customer's page without a session",
    weight: 1,
    run: (c, u, s) => {
      const from = strangerIp();
      switch (way(s, 3)) {
        case 0:
          return c.send(label('GET', routeTable.customerPageRoute), 'GET', routeTable.customerPageRoute.path, { host: u.host, from });
        case 1:
          return c.send(`${label('GET', routeTable.customerDownloadRoute)} (no session)`, 'GET', `${routeTable.customerDownloadRoute.path}?kid=k0000000000`, { host: u.host, from });
        default:
          return c.send(`${label('POST', routeTable.customerActionRoute)} (no session)`, 'POST', routeTable.customerActionRoute.path.replace('{action}', 'redeem'), { host: u.host, from, form: { code: 'NOSUCHCODE1' } });
      }
    },
  },
  // Customers with proven devices: capture through the Profile Service, then the page with the session.
  { name: 'customer: capture a device and open its session', weight: 2, run: (c, u, s) => capture(c, u, s.customers, s.world) },
  { name: 'customer: redeem a code and download', weight: 2, run: (c, u, s) => redeem(c, u, s.customers) },
  { name: 'customer: the page, a re-issue or a download', weight: 2, run: (c, u, s) => visit(c, u, s.customers) },
  { name: 'customer: a session past its end', weight: 1, run: (c, _u, s) => tryEndedSession(c, s.customers) },
  {
    name: 'device feed URL: hand out or revoke',
    weight: 1,
    run: async (c, u, s) => {
      const method = chance(0.7) ? 'GET' : 'DELETE';
      const udid = tenantUdid(s, u);
      const answer = await c.send(label(method, routeTable.deviceUrlRoute), method, managePath(u, `/device-url?udid=${udid}`), bearer(u));
      const key = typeof answer.body.data?.url === 'string' ? new URL(answer.body.data.url).searchParams.get('dk') : null;
      const keys = (s.deviceKeys ??= new Map()).get(u.sourceId)?.filter((k: { udid: string }) => k.udid !== udid) ?? [];
      s.deviceKeys.set(u.sourceId, key && method === 'GET' ? [...keys, { udid, key }].slice(-10) : keys);
    },
  },
  {
    // Agents under the soak's users: created (a few per user), listed, read, changed and topped up with a few
    // cents, which the balance invariant counts through the ledger's agent entries.
    name: 'agents',
    weight: 1,
    run: async (c, u, s) => {
      const mine: string[] = (s.agents ??= new Map<string, string[]>()).get(u.userId) ?? [];
      const route = routeTable.agentsRoute;
      const choice = mine.length === 0 ? 0 : way(s, 5);
      if (choice === 0 && mine.length < 3) {
        const created = await c.send(label('POST', route), 'POST', route.path, {
          ...bearer(u),
          json: { name: `Soak agent ${randomInt(1000)}`, contact: 'soak', prices: [{ mode: 'instant', warranty: 0, device_type: 'iphone', price: 5000 }] },
        });
        const id = created.body.data?.agent_id;
        if (typeof id === 'string') s.agents.set(u.userId, [...mine, id]);
        return created;
      }
      const id: string = pick(mine.length > 0 ? mine : ['u_none']);
      switch (choice) {
        case 1:
          return c.send(`${label('POST', route)} (list)`, 'POST', route.path, bearer(u));
        case 2:
          return c.send(`${label('POST', route)} (one)`, 'POST', route.path, { ...bearer(u), json: { agent_id: id } });
        case 3:
          return c.send(`${label('POST', route)} (change)`, 'POST', route.path, { ...bearer(u), json: { agent_id: id, contact: `soak ${randomInt(1000)}`, suspended: chance(0.3) } });
        default:
          return c.send(`${label('POST', route)} (top-up)`, 'POST', route.path, { ...bearer(u), json: { agent_id: id, amount: 1 + randomInt(20) } });
      }
    },
  },
  {
    // Each user connects its own Apple team once with only the API key (a key pair, a CSR and a certificate
    // at the simulator), then lists it, reads it, pauses and resumes it. Its adds stay in the tenant's pool
    // (type 0), so the connected account changes no other step's money.
    name: 'own Apple account',
    weight: 1,
    run: async (c, u, s) => {
      const route = routeTable.appleAccountsRoute;
      const accounts = (s.ownAccounts ??= new Map<string, string>());
      const accountId = accounts.get(u.userId);
      if (accountId === undefined) {
        accounts.set(u.userId, '');
        const connected = await c.send(`${label('POST', route)} (connect)`, 'POST', route.path, { ...bearer(u), json: u.appleKey });
        const id = connected.body.data?.account_id;
        if (typeof id === 'string') accounts.set(u.userId, id);
        else accounts.delete(u.userId);
        return connected;
      }
      if (accountId === '' || chance(0.4)) return c.send(label('GET', route), 'GET', route.path, bearer(u));
      if (chance(0.5)) return c.send(`${label('GET', route)} (one)`, 'GET', `${route.path}?account_id=${accountId}`, bearer(u));
      const action = chance(0.5) ? 'pause' : 'resume';
      return c.send(`${label('POST', route)} (${action})`, 'POST', route.path, { ...bearer(u), json: { account_id: accountId, action } });
    },
  },
  {
    // A person at the console: signs in with the password (from an address of its own, as people do), then reads
    // its session, the dashboard's figures and its sessions with the cookie instead of the token (writes with
    // the CSRF token), and now and then signs out. The figures are also read with the token, as a script would.
    name: 'console person',
    weight: 1,
    run: async (c, u, s) => {
      const route = routeTable.userSessionRoute;
      const stats = routeTable.userStatsRoute;
      const sessions = (s.consoleSessions ??= new Map());
      const held = sessions.get(u.userId);
      if (held === undefined) {
        sessions.set(u.userId, '');
        const signedIn = await c.send(`${label('POST', route)} (sign in)`, 'POST', route.path, {
          host: u.host,
          from: strangerIp(),
          json: { action: 'sign_in', login: u.login, password: SOAK_PASSWORD },
        });
        const setCookie = signedIn.headers['set-cookie'];
        const cookie = /console_session=[^;]+/.exec(Array.isArray(setCookie) ? setCookie.join('\n') : (setCookie ?? ''))?.[0];
        const csrf = signedIn.body.data?.csrf_token;
        if (cookie && typeof csrf === 'string') sessions.set(u.userId, { cookie, csrf });
        else sessions.delete(u.userId);
        return signedIn;
      }
      if (held === '' || chance(0.3)) return c.send(label('GET', stats), 'GET', stats.path, bearer(u));
      const asPerson = { host: u.host, cookie: held.cookie };
      switch (way(s, 8)) {
        case 0:
        case 1:
          return c.send(label('GET', route), 'GET', route.path, asPerson);
        case 2:
        case 3:
        case 4:
          return c.send(`${label('GET', stats)} (session)`, 'GET', stats.path, asPerson);
        case 5:
        case 6:
          return c.send(`${label('POST', route)} (list)`, 'POST', route.path, { ...asPerson, headers: { 'X-CSRF-Token': held.csrf }, json: { action: 'list' } });
        default:
          sessions.delete(u.userId);
          return c.send(`${label('POST', route)} (sign out)`, 'POST', route.path, { ...asPerson, headers: { 'X-CSRF-Token': held.csrf }, json: { action: 'sign_out' } });
      }
    },
  },
  {
    name: 'events and webhook',
    weight: 2,
    run: async (c, u, s) => {
      const events = routeTable.userEventsRoute;
      const hook = routeTable.userWebhookRoute;
      // Way 0 is the rarest, so the first top-up round takes it.
      switch (way(s, 12)) {
        case 0:
          // Rarely, and set again at once: the events in between are not delivered (they stay in the feed).
          await c.send(label('DELETE', hook), 'DELETE', hook.path, bearer(u));
          return setWebhook(c, u, s);
        case 1:
        case 2:
          return c.send(label('GET', events), 'GET', `${events.path}?limit=20`, bearer(u));
        case 3:
        case 4:
          return c.send(label('POST', events), 'POST', events.path, { ...bearer(u), json: { limit: 20 } });
        case 5:
        case 6:
          return setWebhook(c, u, s);
        case 7:
        case 8:
          return c.send(label('POST', routeTable.userWebhookTestRoute), 'POST', routeTable.userWebhookTestRoute.path, bearer(u));
        default:
          return c.send(label('GET', hook), 'GET', hook.path, bearer(u));
      }
    },
  },
  {
    name: 'sources: list, create, read, delete a scratch one; apps list and delete; news',
    weight: 2,
    run: async (c, u, s) => {
      switch (way(s, 6)) {
        case 0:
          return c.send(label('GET', routeTable.sourcesRoute), 'GET', routeTable.sourcesRoute.path, bearer(u));
        case 1: {
          // A scratch source, read and deleted again (the user's own source stays).
          const created = await c.send(label('POST', routeTable.sourcesRoute), 'POST', routeTable.sourcesRoute.path, { ...bearer(u), json: { name: `Scratch ${randomInt(1000)}` } });
          const id = created.body.data?.source_id;
          if (typeof id !== 'string') return;
          await c.send(label('GET', routeTable.sourceDetailRoute), 'GET', `/api/appstore/manage/sources/${id}`, bearer(u));
          return c.send(label('DELETE', routeTable.sourceDetailRoute), 'DELETE', `/api/appstore/manage/sources/${id}`, bearer(u));
        }
        case 2:
          return c.send(label('GET', routeTable.listAppsRoute), 'GET', managePath(u, `/apps?limit=20${chance(0.5) ? '&status=published' : ''}`), bearer(u));
        case 3: {
          const apps = s.apps.get(u.sourceId) ?? [];
          const id = apps.length > 5 ? apps.shift() : undefined;
          if (id === undefined) return c.send(label('GET', routeTable.listAppsRoute), 'GET', managePath(u, '/apps'), bearer(u));
          // Only a draft can be deleted and every app the mix creates is published at once: taken off the
          // feed first (or already off it), then deleted, so the delete succeeds on any run, not by luck.
          await c.send(label('POST', routeTable.unpublishAppRoute), 'POST', managePath(u, `/apps/${id}/unpublish`), bearer(u));
          return c.send(label('DELETE', routeTable.deleteAppRoute), 'DELETE', managePath(u, `/apps/${id}`), bearer(u));
        }
        case 4:
          return c.send(label('GET', routeTable.sourceNewsRoute), 'GET', managePath(u, '/news'), bearer(u));
        default: {
          const posted = await c.send(label('POST', routeTable.sourceNewsRoute), 'POST', managePath(u, '/news'), { ...bearer(u), json: { title: 'Soak news', caption: `Build ${s.versionCounter}` } });
          const id = posted.body.data?.id ?? posted.body.data?.news_id;
          if (typeof id !== 'string' && typeof id !== 'number') return;
          return c.send(label('DELETE', routeTable.newsEntryRoute), 'DELETE', managePath(u, `/news/${String(id)}`), bearer(u));
        }
      }
    },
  },
];

/** Every `METHOD path` of the route table, for the report's "never sent" line. */
export function everyRouteLabel(): string[] {
  return routeTable.routes.flatMap((route) => route.methods.map((method) => label(method, route)));
}
