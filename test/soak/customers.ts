/**
 * The soak's customers: phones that prove their UDID through the Profile Service with the device simulator's
 * signed answers (the code `npm run device-sim -- capture` runs), follow the capture's redirect, open their
 * session with its one-time `st`, and then act on the customer's page with the session cookie alone: redeem
 * activation codes, download their certificates' zips, and take the free re-issue a revoked certificate
 * offers.
 *
 * Each phone sends from a loopback address of its own (127.1.x.y), as separate customers would, and the soak
 * paces what the page's limits count (redeems and re-issues: per device and per tenant an hour) below those
 * limits, so the limits stay as they are and successes still happen.
 */
import { randomInt } from 'node:crypto';
import yauzl from 'yauzl';
import { buildAnswer } from '../../infra/device-simulator/run';
import { readProfile } from '../../infra/device-simulator/device';
import type { DeviceCa } from '../../infra/device-simulator/device-pki';
import * as routeTable from '../../shared/routes';
import type { Answer, SoakClient } from './client';
import type { SoakUser, SoakWorld } from './harness';

const label = (method: string, route: { path: string }) => `${method} ${route.path}`;

/** What the page's limits allow: 10 redeems or re-issues per device and 300 per tenant per clock hour. */
const DEVICE_PER_HOUR = 8;
const TENANT_PER_HOUR = 240;
/**
 * Spread over the run, so a long run keeps succeeding to its end (an hour's 240 is 4 a minute) and a short
 * one is not held to a sixtieth of its hour.
 */
const tenantPerMinute = (minutes: number) => Math.max(4, Math.ceil(TENANT_PER_HOUR / Math.max(1, minutes)));
/**
 * Redeems leave this much of a device's and a tenant's hour for re-issues: a re-issue is offered only after
 * the soak revokes an account, late in a short run, when redeems would otherwise have spent the hour (the
 * 10-minute run once met that: one re-issue tried, met by an injected Apple fault, and no budget left to retry).
 */
const REISSUE_RESERVE = { device: 2, tenant: 24 };
/** Failed redeems per address are limited to 10 an hour: a phone tries a wrong code at most twice. */
const WRONG_CODES_PER_PHONE = 2;
/** A session is renewed (a new capture) this long before its cookie's end. */
const SESSION_MARGIN_MS = 60_000;

/** Attempts in a sliding hour (and minute): under it, the product's clock-hour limits are never reached. */
export class Pace {
  private times: number[] = [];
  constructor(
    private readonly perHour: number,
    private readonly perMinute = perHour,
  ) {}

  /**
   * `reserve`: attempts of the hour this take must leave for others (a redeem leaves some for re-issues).
   * `spread: false` skips the minute's share (the hour's limit still holds): for a re-issue, which is rare and
   * late, and which a phone's redeems of the last minute must not crowd out (a fresh clone's run once tried its
   * only re-issue into an injected fault, then every try after it fell within that phone's minute).
   */
  take(now = Date.now(), reserve = 0, spread = true): boolean {
    this.times = this.times.filter((t) => t > now - 3_600_000);
    if (this.times.length >= this.perHour - reserve || (spread && this.times.filter((t) => t > now - 60_000).length >= this.perMinute)) return false;
    this.times.push(now);
    return true;
  }
}

export interface CustomerSession {
  tenantId: string;
  udid: string;
  cookie: string;
  /** Epoch ms: just before the ticket's open was sent, and when its answer came. */
  openedFrom: number;
  openedBy: number;
  /** The cookie's end by its Max-Age, epoch ms. */
  endsAt: number;
  /** A request made with it after its end, and what came back (a session must not outlive its expiry). */
  afterEnd?: { at: number; status: number };
}

export interface Phone {
  tenantId: string;
  host: string | undefined;
  udid: string;
  /** Apple's model identifier its answer carries: an iPhone mostly, now and then an iPad (on the same UDIDs the users add). */
  product: string;
  ip: string;
  /** The page it returns to: a source's install page, or the tenant's customer page (''). */
  sourceId: string;
  session?: CustomerSession;
  pace: Pace;
  wrongCodes: number;
  busy: boolean;
  /** Its page showed a re-issue last time. */
  offersReissue?: boolean;
  /** When it last saw its page (epoch ms). */
  lookedAt?: number;
}

export interface CustomerState {
  ca: DeviceCa;
  apiHost: string;
  phones: Phone[];
  sessions: CustomerSession[];
  tenantPace: Map<string, Pace>;
  /** Zips downloaded and opened, and what was missing from any. */
  zips: { checked: number; incomplete: string[] };
  /** Per tenant: activation codes set aside for customers. */
  codes: Map<string, string[]>;
  /** Redeems and re-issues a tenant's customers may make a minute (see `tenantPerMinute`). */
  perMinute: number;
  /** When an account of the tenant was last revoked (epoch ms): its phones look at their page again first. */
  revokedAt: Map<string, number>;
}

let nextIp = 0;
const phoneIp = () => {
  const n = nextIp++;
  return `127.1.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`;
};

export function customerState(world: SoakWorld, ca: DeviceCa, apiUrl: string, minutes: number): CustomerState {
  const codes = new Map<string, string[]>();
  for (const user of world.users) codes.set(user.tenantId, [...(codes.get(user.tenantId) ?? []), ...user.customerCodes]);
  return { ca, apiHost: new URL(apiUrl).host, phones: [], sessions: [], tenantPace: new Map(), zips: { checked: 0, incomplete: [] }, codes, perMinute: tenantPerMinute(minutes), revokedAt: new Map() };
}

/** A link the service built (callback, redirect, page): the path to request and the `Host` to request it with. */
function target(state: CustomerState, link: string): { path: string; host: string | undefined } {
  const url = new URL(link);
  return { path: `${url.pathname}${url.search}`, host: url.host === state.apiHost ? undefined : url.host };
}

const header = (answer: Answer, name: string): string | undefined => {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * How a phone's requests reach the API: its own address, the tenant's host, and — on a tenant's own domain —
 * `X-Forwarded-Proto: https`, as API Gateway sends it there (the links the service builds are then https, as
 * deployed).
 */
function via(phone: Pick<Phone, 'host' | 'ip'>, host = phone.host): { host: string | undefined; from: string; headers: Record<string, string> } {
  return { host, from: phone.ip, headers: phone.host ? { 'X-Forwarded-Proto': 'https' } : {} };
}

const unescapeHtml = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** The labels whose success the soak requires beside every route's: the customer's steps, each on its own. */
export const CUSTOMER_STEPS = [
  `${label('GET', routeTable.installPageRoute)} (open session)`,
  `${label('GET', routeTable.customerPageRoute)} (open session)`,
  `${label('POST', routeTable.customerActionRoute)} (redeem)`,
  `${label('POST', routeTable.customerActionRoute)} (reissue)`,
];

function pageRoute(phone: Pick<Phone, 'sourceId'>) {
  return phone.sourceId ? routeTable.installPageRoute : routeTable.customerPageRoute;
}

function pagePath(phone: Pick<Phone, 'sourceId'>): string {
  return phone.sourceId ? routeTable.installPageRoute.path.replace('{source_id}', phone.sourceId) : routeTable.customerPageRoute.path;
}

function livingSession(phone: Phone, now = Date.now()): CustomerSession | undefined {
  return phone.session && phone.session.endsAt - SESSION_MARGIN_MS > now ? phone.session : undefined;
}

/** A phone of the user's tenant that is free: one without a living session first, else a new one for a UDID no phone holds. */
function phoneToCapture(state: CustomerState, world: SoakWorld, user: SoakUser): Phone | undefined {
  const idle = state.phones.filter((p) => p.tenantId === user.tenantId && !p.busy && !livingSession(p));
  if (idle.length) return idle[randomInt(idle.length)];
  const held = new Set(state.phones.filter((p) => p.tenantId === user.tenantId).map((p) => p.udid));
  const tenant = world.tenants.find((t) => t.tenantId === user.tenantId)!;
  const ipad = randomInt(5) === 0;
  const free = tenant.udids.filter((u) => !held.has(u));
  if (!free.length) return undefined;
  const phone: Phone = {
    tenantId: user.tenantId,
    host: user.host,
    udid: free[randomInt(free.length)]!,
    product: ipad ? 'iPad13,4' : 'iPhone15,2',
    ip: phoneIp(),
    sourceId: user.sourceId,
    pace: new Pace(DEVICE_PER_HOUR, 2),
    wrongCodes: 0,
    busy: false,
  };
  state.phones.push(phone);
  return phone;
}

/**
 * A capture as a customer makes it: the profile (the user's source profile, or now and then the tenant's
 * profile returning to the tenant's customer page), the signed answer, the redirect followed, the one-time
 * `st` spent for the session cookie, and the page opened with the cookie.
 */
export async function capture(c: SoakClient, user: SoakUser, state: CustomerState, world: SoakWorld): Promise<void> {
  const phone = phoneToCapture(state, world, user);
  if (!phone) return;
  phone.busy = true;
  try {
    // The page the customer starts on (a source's install page, now and then the tenant's page) and the
    // "Get my UDID" link it offers.
    phone.sourceId = randomInt(4) === 0 ? '' : user.sourceId;
    const start = await c.send(label('GET', pageRoute(phone)), 'GET', pagePath(phone), via(phone));
    const link = /id="get-udid" href="([^"]+)"/.exec(start.bytes.toString('utf8'))?.[1];
    if (!link) return;
    const profileLink = target(state, unescapeHtml(link));
    const profileRoute = phone.sourceId ? routeTable.sourceUdidProfileRoute : routeTable.udidProfileRoute;
    const profile = await c.send(label('GET', profileRoute), 'GET', profileLink.path, via(phone, profileLink.host));
    if (profile.status !== 200) return;
    const service = readProfile(profile.bytes);
    const answer = buildAnswer(state.ca, { udid: phone.udid, product: phone.product, deviceName: `Soak phone ${phone.udid.slice(-4)}` }, service.challenge);
    const callback = target(state, service.url);
    const captured = await c.send(label('POST', routeTable.udidCallbackRoute), 'POST', callback.path, {
      ...via(phone, callback.host),
      raw: { bytes: answer, type: 'application/pkcs7-signature' },
      judge: (a) => (a.status === 301 && header(a, 'location') ? undefined : `http ${a.status} no redirect`),
    });
    const location = header(captured, 'location');
    if (captured.status !== 301 || !location) return;
    // The redirect back to the page carries the one-time `st`, which opens the session.
    if (!new URL(location).searchParams.get('st')) return;
    const redirect = target(state, location);
    const openedFrom = Date.now();
    const opened = await c.send(`${label('GET', pageRoute(phone))} (open session)`, 'GET', redirect.path, {
      ...via(phone, redirect.host),
      judge: (a) => (a.status === 303 && /customer_session=[^;]+/.test(header(a, 'set-cookie') ?? '') ? undefined : `http ${a.status} no session`),
    });
    const setCookie = header(opened, 'set-cookie') ?? '';
    const cookie = /customer_session=[^;]+/.exec(setCookie)?.[0];
    const maxAge = Number(/Max-Age=(\d+)/i.exec(setCookie)?.[1]);
    if (opened.status !== 303 || !cookie || !(maxAge > 0)) return;
    const session: CustomerSession = { tenantId: phone.tenantId, udid: phone.udid, cookie, openedFrom, openedBy: Date.now(), endsAt: openedFrom + maxAge * 1000 };
    state.sessions.push(session);
    phone.session = session;
    const page = target(state, header(opened, 'location') ?? location);
    const shown = await c.send(label('GET', pageRoute(phone)), 'GET', page.path, { ...via(phone, page.host), cookie, judge: (a) => (a.bytes.toString('utf8').includes('id="redeem"') ? undefined : 'page without the session') });
    note(phone, shown);
  } finally {
    phone.busy = false;
  }
}

/** The certificates a page shows: kid, state, whether it offers a download and a re-issue. */
export function certificatesOnPage(html: string): { kid: string; state: string; download: boolean; reissue: boolean }[] {
  return html
    .split('<div class="cert" data-kid="')
    .slice(1)
    .map((card) => ({
      kid: card.slice(0, card.indexOf('"')),
      state: /data-state="([^"]+)"/.exec(card)?.[1] ?? '',
      download: card.includes('/api/customer/download?kid='),
      reissue: card.includes('/api/customer/reissue'),
    }));
}

function zipEntries(zip: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('no zip'));
      const names: string[] = [];
      file.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        file.readEntry();
      });
      file.on('end', () => resolve(names));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

const ZIP_FILES = ['certificate.p12', 'profile.mobileprovision', 'password.txt'];

/** A phone with a session that is not busy, marked busy; undefined when there is none. */
function phoneWithSession(state: CustomerState, user: SoakUser, preferReissue = false): Phone | undefined {
  const ready = state.phones.filter((p) => p.tenantId === user.tenantId && !p.busy && livingSession(p));
  // A phone whose page offered a re-issue, or one that has not looked since its tenant's account was revoked.
  const revokedAt = state.revokedAt.get(user.tenantId) ?? 0;
  const offering = preferReissue ? ready.filter((p) => p.offersReissue || (p.lookedAt ?? 0) < revokedAt) : [];
  const from = offering.length ? offering : ready;
  const phone = from.length ? from[randomInt(from.length)] : undefined;
  if (phone) phone.busy = true;
  return phone;
}

function takeAttempt(state: CustomerState, phone: Phone, kind: 'redeem' | 'reissue'): boolean {
  const tenant = state.tenantPace.get(phone.tenantId) ?? new Pace(TENANT_PER_HOUR, state.perMinute);
  state.tenantPace.set(phone.tenantId, tenant);
  const now = Date.now();
  const reserve = kind === 'redeem' ? REISSUE_RESERVE : { device: 0, tenant: 0 };
  // The device's own hour first: a refused take there spends nothing of the tenant's.
  const spread = kind === 'redeem';
  return phone.pace.take(now, reserve.device, spread) && tenant.take(now, reserve.tenant, spread);
}

async function openPage(c: SoakClient, state: CustomerState, phone: Phone, cookie: string): Promise<Answer> {
  const page = await c.send(label('GET', pageRoute(phone)), 'GET', pagePath(phone), { ...via(phone), cookie });
  note(phone, page);
  return page;
}

/** Remembers whether the phone's page offers a re-issue, so the next visit goes for it. */
function note(phone: Phone, page: Answer): void {
  phone.lookedAt = Date.now();
  phone.offersReissue = certificatesOnPage(page.bytes.toString('utf8')).some((cert) => cert.reissue);
}

/** Downloads one of the page's certificates and opens the zip: success is a zip holding the three files. */
async function download(c: SoakClient, state: CustomerState, phone: Phone, cookie: string, kid: string): Promise<void> {
  let missing: string[] = [];
  const route = via(phone);
  await c.send(label('GET', routeTable.customerDownloadRoute), 'GET', `${routeTable.customerDownloadRoute.path}?kid=${encodeURIComponent(kid)}`, {
    ...route,
    cookie,
    headers: { ...route.headers, Accept: 'application/zip' },
    judge: async (a) => {
      const names = await zipEntries(a.bytes).catch(() => [] as string[]);
      missing = ZIP_FILES.filter((f) => !names.includes(f));
      state.zips.checked++;
      return missing.length ? `zip without ${missing.join(', ')}` : undefined;
    },
  });
  if (missing.length) state.zips.incomplete.push(`${kid}: ${missing.join(', ')}`);
}

/** Redeems one of the tenant's codes (now and then a wrong one, refused), then downloads what the page offers. */
export async function redeem(c: SoakClient, user: SoakUser, state: CustomerState): Promise<void> {
  const phone = phoneWithSession(state, user);
  if (!phone) return;
  try {
    const cookie = phone.session!.cookie;
    if (!takeAttempt(state, phone, 'redeem')) return;
    const codes = state.codes.get(phone.tenantId) ?? [];
    const wrong = !codes.length || (phone.wrongCodes < WRONG_CODES_PER_PHONE && randomInt(10) === 0);
    if (wrong) phone.wrongCodes++;
    const code = wrong ? `NOSUCHCODE${randomInt(100)}` : codes.pop()!;
    const route = routeTable.customerActionRoute;
    const done = await c.send(`${label('POST', route)} (redeem)`, 'POST', route.path.replace('{action}', 'redeem'), {
      ...via(phone),
      cookie,
      form: { code, ...(phone.sourceId ? { source: phone.sourceId } : {}) },
      judge: (a) => (a.status === 303 && /done=(ready|review)/.test(header(a, 'location') ?? '') ? undefined : `http ${a.status} not done`),
    });
    if (done.status !== 303) return;
    const page = await openPage(c, state, phone, cookie);
    const ready = certificatesOnPage(page.bytes.toString('utf8')).filter((cert) => cert.download);
    if (ready.length) await download(c, state, phone, cookie, ready[0]!.kid);
  } finally {
    phone.busy = false;
  }
}

/** The page again: a free re-issue where one is offered (after the soak's revoke), else a download. */
export async function visit(c: SoakClient, user: SoakUser, state: CustomerState): Promise<void> {
  const phone = phoneWithSession(state, user, true);
  if (!phone) return;
  try {
    const cookie = phone.session!.cookie;
    const page = await openPage(c, state, phone, cookie);
    const certificates = certificatesOnPage(page.bytes.toString('utf8'));
    const reissuable = certificates.find((cert) => cert.reissue);
    if (reissuable && takeAttempt(state, phone, 'reissue')) {
      const route = routeTable.customerActionRoute;
      await c.send(`${label('POST', route)} (reissue)`, 'POST', route.path.replace('{action}', 'reissue'), {
        ...via(phone),
        cookie,
        form: { kid: reissuable.kid, ...(phone.sourceId ? { source: phone.sourceId } : {}) },
        judge: (a) => (a.status === 303 && /done=(ready|review)/.test(header(a, 'location') ?? '') ? undefined : `http ${a.status} not done`),
      });
      return;
    }
    const ready = certificates.filter((cert) => cert.download);
    if (ready.length) await download(c, state, phone, cookie, ready[randomInt(ready.length)]!.kid);
  } finally {
    phone.busy = false;
  }
}

/**
 * A session whose cookie has ended is tried once more: it must open nothing (401 on a download). In runs
 * shorter than a session (30 minutes) no cookie ends; the invariant then asks the product's own check at
 * the stored expiry.
 */
export async function tryEndedSession(c: SoakClient, state: CustomerState): Promise<void> {
  const now = Date.now();
  const ended = state.sessions.find((s) => !s.afterEnd && s.endsAt + 1_000 < now);
  if (!ended) return;
  const phone = state.phones.find((p) => p.tenantId === ended.tenantId && p.udid === ended.udid);
  if (!phone) return;
  const answer = await c.send(`${label('GET', routeTable.customerDownloadRoute)} (ended session)`, 'GET', `${routeTable.customerDownloadRoute.path}?kid=k0000000000`, {
    ...via(phone),
    cookie: ended.cookie,
  });
  ended.afterEnd = { at: now, status: answer.status };
}
