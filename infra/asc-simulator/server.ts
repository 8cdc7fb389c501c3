/**
 * App Store Connect simulator: a local stand-in for the provisioning endpoints of Apple's API (apple-routes.ts),
 * with Apple's JWT check, JSON:API bodies, error codes and texts, `X-Rate-Limit`, 100 devices per class,
 * PROCESSING devices on review teams, and real CMS-signed profiles and PKCS#12 files. Teams live in memory.
 * Apple derives a device's class from its hardware; here platform MAC_OS is a Mac, an IOS device named with
 * "iPad" (any case) an iPad, any other an iPhone (teams.ts, deviceClassOf).
 *
 * Control endpoints, so another process (the operator CLI) can drive a simulator started by `npm start`
 * (no authentication: the simulator listens on 127.0.0.1 only). Errors answer `{"error": "<message>"}`.
 *   GET  /_sim/health                                → 200 {"status":"ok","teams":N}
 *   POST /_sim/teams                                 → 201 SimulatedTeam
 *        body {"mode":"instant"|"review","name"?,"deviceLimitPerClass"?,"hourlyRequestLimit"?,"processingSeconds"?}
 *        ("keyRole"?: ADMIN|APP_MANAGER|DEVELOPER, "certificateLimit"?: N as well)
 *   POST /_sim/teams/{teamId}/revoke-certificate     → 200 {"teamId","certificateId"}  body {"certificateId"?} (default: the team's first)
 *   POST /_sim/teams/{teamId}/keys                   → 201 {"teamId","issuerId","keyId","privateKeyPem","role"}  body {"role"?}
 *   POST /_sim/teams/{teamId}/revoke-key             → 200 {"teamId","keyId"}  body {"keyId"}  (Apple then answers the key 401)
 *   GET  /_sim/teams/{teamId}/certificates           → 200 {"teamId","certificates":[{"id","serialNumber","expiresAt","revoked"}],"bundleIds":[{"id","identifier"}]}
 *   POST /_sim/teams/{teamId}/rate-limit             → 200 {"teamId","hourlyRequestLimit"}  body {"hourlyRequestLimit":N}
 *   POST /_sim/devices/{udid}/ineligible[?teamId=T]  → 200 {"udid","devices":N}  status INELIGIBLE (Apple refused it)
 *   POST /_sim/devices/{udid}/enable[?teamId=T]      → 200 {"udid","devices":N}  status ENABLED now (ends PROCESSING)
 *   GET  /_sim/teams/{teamId}/devices                → 200 {"teamId","devices":[{"id","udid","status","deviceClass"}]}
 *   POST /_sim/teams/{teamId}/fault                  → 200 {"teamId","method","path","effect","times"}  body {"method","path","effect","times"?}
 *
 * Faults (`injectFault`, or the `fault` control endpoint for a running `npm start`): the next matching Apple requests fail the way the network or Apple
 * can — `lose-answer` does the work and then drops the connection without a response (a timeout as the
 * client sees it), `unavailable` answers 503 without doing anything, `forbidden` answers Apple's 403, `slow`
 * answers normally after `delayMs` (an Apple having a bad minute). `takenFaults()` lists the faults requests met,
 * with when, so a load run can tell which failures it caused.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as z from 'zod/mini';
import { appleErrors, SimAppleError } from './apple-errors';
import { handleAppleRequest } from './apple-routes';
import { authenticate } from './auth';
import { certificateAuthority, type CertificateAuthority } from './pki';
import { newTeam, type NewTeamOptions, type SimKeyRole, type SimTeam, type SimulatedTeamCredentials } from './teams';

export type { NewTeamOptions, TeamMode } from './teams';

export interface AscSimulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: '127.0.0.1';
  /** How long review teams keep new devices PROCESSING: default SIM_PROCESSING_SECONDS, else 60. */
  processingSeconds?: number;
}

/** A team's credentials plus the base URL to reach it: everything an account record needs. */
export type SimulatedTeam = SimulatedTeamCredentials & { baseUrl: string };

/** A new API key of a team, as Apple's portal shows it once. */
export interface SimulatedKey {
  teamId: string;
  issuerId: string;
  keyId: string;
  privateKeyPem: string;
  role: SimKeyRole;
}

/** What Apple holds for a team's signing, for tests to compare with what the service says. */
export interface SimulatedSigningAssets {
  teamId: string;
  certificates: { id: string; serialNumber: string; expiresAt: string; revoked: boolean }[];
  bundleIds: { id: string; identifier: string }[];
}

export interface SimulatedFault {
  teamId: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** The Apple path, e.g. `/v1/devices`. */
  path: string;
  effect: 'lose-answer' | 'unavailable' | 'forbidden' | 'slow';
  /** How many matching requests it hits (default 1). */
  times?: number;
  /** `slow`: how long the answer is held back (default 2 s). */
  delayMs?: number;
}

/** A fault a request met: which, on what, and when (epoch ms). */
export interface TakenFault {
  teamId: string;
  method: string;
  path: string;
  effect: SimulatedFault['effect'];
  at: number;
  /** How long a slow answer was held. */
  delayMs?: number;
}

export interface AscSimulator {
  url: string;
  /** The team's registered devices, as Apple would list them. */
  registeredDevices(teamId: string): { id: string; udid: string; status: string; deviceClass: string }[];
  injectFault(fault: SimulatedFault): void;
  /** Drops the team's faults not yet met (Apple is back). */
  clearFaults(teamId: string): void;
  /** Every fault a request has met so far, oldest first. */
  takenFaults(): readonly TakenFault[];
  close(): Promise<void>;
  createTeam(options: NewTeamOptions): Promise<SimulatedTeam>;
  /** Apple revokes a distribution certificate of the team (default its first): it 404s and leaves the list. */
  revokeCertificate(teamId: string, certificateId?: string): { teamId: string; certificateId: string };
  /** A new API key of the team (role ADMIN unless said). */
  createKey(teamId: string, role?: SimKeyRole): SimulatedKey;
  /** The key is revoked in Apple's portal: every request signed with it gets 401. */
  revokeKey(teamId: string, keyId: string): void;
  signingAssets(teamId: string): SimulatedSigningAssets;
  setHourlyRequestLimit(teamId: string, hourlyRequestLimit: number): void;
  /** Marks the UDID INELIGIBLE on one team, or on every team that has it; returns how many devices changed. */
  markDeviceIneligible(udid: string, teamId?: string): number;
  /** Ends PROCESSING at once for the UDID (one team or all); returns how many devices changed. */
  enableDevice(udid: string, teamId?: string): number;
}

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const MAX_BODY_BYTES = 1024 * 1024;
/** What an unauthenticated answer reports: Apple's default budget, untouched. */
const UNKNOWN_KEY_RATE_LIMIT = 'user-hour-lim:3600;user-hour-rem:3600;';

function defaultProcessingSeconds(): number {
  const fromEnv = Number(process.env.SIM_PROCESSING_SECONDS);
  return process.env.SIM_PROCESSING_SECONDS && Number.isFinite(fromEnv) && fromEnv >= 0 ? fromEnv : 60;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw appleErrors.entityTooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (status === 204) {
    response.writeHead(204, headers);
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

const createTeamBody = z.object({
  mode: z.enum(['instant', 'review']),
  name: z.optional(z.string().check(z.minLength(1))),
  deviceLimitPerClass: z.optional(z.int().check(z.positive())),
  hourlyRequestLimit: z.optional(z.int().check(z.positive())),
  processingSeconds: z.optional(z.number().check(z.nonnegative())),
  keyRole: z.optional(z.enum(['ADMIN', 'APP_MANAGER', 'DEVELOPER'])),
  certificateLimit: z.optional(z.int().check(z.positive())),
});
const revokeCertificateBody = z.object({ certificateId: z.optional(z.string()) });
const keyBody = z.object({ role: z.optional(z.enum(['ADMIN', 'APP_MANAGER', 'DEVELOPER'])) });
const revokeKeyBody = z.object({ keyId: z.string() });
const rateLimitBody = z.object({ hourlyRequestLimit: z.int().check(z.positive()) });
const faultBody = z.object({
  method: z.enum(['GET', 'POST', 'DELETE']),
  path: z.string().check(z.regex(/^\/v1\/[A-Za-z0-9/_-]+$/)),
  effect: z.enum(['lose-answer', 'unavailable', 'forbidden']),
  times: z.optional(z.int().check(z.positive(), z.maximum(1_000))),
});

function parseControlBody<S extends z.ZodMiniType>(schema: S, text: string): z.infer<S> {
  let json: unknown;
  try {
    json = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new ControlError(400, 'The body is not JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ControlError(400, z.prettifyError(parsed.error));
  return parsed.data;
}

class Simulator implements AscSimulator {
  readonly #teams = new Map<string, SimTeam>();
  readonly #faults: (SimulatedFault & { left: number })[] = [];
  readonly #teamsByKey = new Map<string, SimTeam>();
  readonly #taken: TakenFault[] = [];

  constructor(
    readonly url: string,
    private readonly authority: CertificateAuthority,
    private readonly processingSeconds: number,
    readonly close: () => Promise<void>,
  ) {}

  async createTeam(options: NewTeamOptions): Promise<SimulatedTeam> {
    const { team, credentials } = await newTeam(this.authority, options, {
      processingSeconds: this.processingSeconds,
      now: Date.now(),
    });
    this.#teams.set(team.teamId, team);
    this.#teamsByKey.set(`${team.issuerId}/${team.keyId}`, team);
    return { ...credentials, baseUrl: this.url };
  }

  teamOfKey(issuerId: string, keyId: string): SimTeam | undefined {
    return this.#teamsByKey.get(`${issuerId}/${keyId}`);
  }

  get teamCount(): number {
    return this.#teams.size;
  }

  revokeCertificate(teamId: string, certificateId?: string): { teamId: string; certificateId: string } {
    const team = this.#team(teamId);
    const certificate = certificateId === undefined ? team.certificate : team.certificates.get(certificateId);
    if (!certificate) throw new ControlError(404, `No certificate ${certificateId ?? ''} on team ${teamId}`);
    certificate.revoked = true;
    return { teamId, certificateId: certificate.id };
  }

  createKey(teamId: string, role: SimKeyRole = 'ADMIN'): SimulatedKey {
    const team = this.#team(teamId);
    const { key, privateKeyPem } = team.addKey(role);
    this.#teamsByKey.set(`${team.issuerId}/${key.keyId}`, team);
    return { teamId, issuerId: team.issuerId, keyId: key.keyId, privateKeyPem, role };
  }

  revokeKey(teamId: string, keyId: string): void {
    const key = this.#team(teamId).keys.get(keyId);
    if (!key) throw new ControlError(404, `No key ${keyId} on team ${teamId}`);
    key.revoked = true;
  }

  signingAssets(teamId: string): SimulatedSigningAssets {
    const team = this.#team(teamId);
    return {
      teamId,
      certificates: [...team.certificates.values()].map((c) => ({ id: c.id, serialNumber: c.serialNumber, expiresAt: c.expiresAt.toISOString(), revoked: c.revoked })),
      bundleIds: [...team.bundleIds.values()].map((b) => ({ id: b.id, identifier: b.identifier })),
    };
  }

  setHourlyRequestLimit(teamId: string, hourlyRequestLimit: number): void {
    this.#team(teamId).budget.limit = hourlyRequestLimit;
  }

  markDeviceIneligible(udid: string, teamId?: string): number {
    return this.#overrideStatus(udid, teamId, 'INELIGIBLE');
  }

  enableDevice(udid: string, teamId?: string): number {
    return this.#overrideStatus(udid, teamId, 'ENABLED');
  }

  registeredDevices(teamId: string) {
    const team = this.#team(teamId);
    return [...team.devices.values()].map((d) => ({ id: d.id, udid: d.udid, status: team.deviceStatus(d, Date.now()), deviceClass: d.deviceClass }));
  }

  injectFault(fault: SimulatedFault): void {
    this.#team(fault.teamId);
    this.#faults.push({ ...fault, left: fault.times ?? 1 });
  }

  clearFaults(teamId: string): void {
    for (const fault of this.#faults) if (fault.teamId === teamId) fault.left = 0;
  }

  takenFaults(): readonly TakenFault[] {
    return this.#taken;
  }

  /** The fault this request meets, if any, counting it down. */
  takeFault(team: SimTeam, method: string, path: string): (SimulatedFault & { left: number }) | undefined {
    const fault = this.#faults.find((f) => f.left > 0 && f.teamId === team.teamId && f.method === method && f.path === path);
    if (!fault) return undefined;
    fault.left--;
    this.#taken.push({ teamId: team.teamId, method, path, effect: fault.effect, at: Date.now(), ...(fault.effect === 'slow' ? { delayMs: fault.delayMs } : {}) });
    return fault;
  }

  #team(teamId: string): SimTeam {
    const team = this.#teams.get(teamId);
    if (!team) throw new ControlError(404, `No simulated team ${teamId}`);
    return team;
  }

  #overrideStatus(udid: string, teamId: string | undefined, status: 'ENABLED' | 'INELIGIBLE'): number {
    const teams = teamId === undefined ? [...this.#teams.values()] : [this.#team(teamId)];
    let changed = 0;
    for (const team of teams) {
      const device = team.deviceByUdid(udid);
      if (device) {
        device.statusOverride = status;
        changed++;
      }
    }
    return changed;
  }
}

async function handleControl(simulator: Simulator, request: IncomingMessage, url: URL): Promise<[number, unknown]> {
  const { method } = request;
  const path = url.pathname;
  if (method === 'GET' && path === '/_sim/health') return [200, { status: 'ok', teams: simulator.teamCount }];
  const listing = /^\/_sim\/teams\/([^/]+)\/devices$/.exec(path);
  if (method === 'GET' && listing?.[1]) {
    const teamId = decodeURIComponent(listing[1]);
    return [200, { teamId, devices: simulator.registeredDevices(teamId) }];
  }
  const assets = /^\/_sim\/teams\/([^/]+)\/certificates$/.exec(path);
  if (method === 'GET' && assets?.[1]) return [200, simulator.signingAssets(decodeURIComponent(assets[1]))];
  if (method !== 'POST') throw new ControlError(404, `No control endpoint ${method ?? ''} ${path}`);
  const body = await readBody(request);
  if (path === '/_sim/teams') return [201, await simulator.createTeam(parseControlBody(createTeamBody, body))];

  const teamAction = /^\/_sim\/teams\/([^/]+)\/(revoke-certificate|rate-limit|fault|keys|revoke-key)$/.exec(path);
  const teamId = teamAction?.[1] && decodeURIComponent(teamAction[1]);
  if (teamId && teamAction?.[2] === 'revoke-certificate') return [200, simulator.revokeCertificate(teamId, parseControlBody(revokeCertificateBody, body).certificateId)];
  if (teamId && teamAction?.[2] === 'keys') return [201, simulator.createKey(teamId, parseControlBody(keyBody, body).role)];
  if (teamId && teamAction?.[2] === 'revoke-key') {
    const { keyId } = parseControlBody(revokeKeyBody, body);
    simulator.revokeKey(teamId, keyId);
    return [200, { teamId, keyId }];
  }
  if (teamId && teamAction?.[2] === 'rate-limit') {
    const { hourlyRequestLimit } = parseControlBody(rateLimitBody, body);
    simulator.setHourlyRequestLimit(teamId, hourlyRequestLimit);
    return [200, { teamId, hourlyRequestLimit }];
  }
  if (teamId && teamAction?.[2] === 'fault') {
    const fault = { teamId, ...parseControlBody(faultBody, body) };
    simulator.injectFault(fault);
    return [200, { ...fault, times: fault.times ?? 1 }];
  }

  const deviceAction = /^\/_sim\/devices\/([^/]+)\/(ineligible|enable)$/.exec(path);
  const udid = deviceAction?.[1] && decodeURIComponent(deviceAction[1]);
  if (udid) {
    const onTeam = url.searchParams.get('teamId') ?? undefined;
    const devices =
      deviceAction?.[2] === 'ineligible'
        ? simulator.markDeviceIneligible(udid, onTeam)
        : simulator.enableDevice(udid, onTeam);
    if (devices === 0) throw new ControlError(404, `No simulated device ${udid}`);
    return [200, { udid, devices }];
  }
  throw new ControlError(404, `No control endpoint ${method} ${path}`);
}

/**
 * Holds a slow fault's request for `ms` (Apple having a bad minute), then does the work whether or not anyone
 * still listens: a client that stopped waiting still finds the device registered later, as with Apple. The
 * timer does not keep the process alive on its own: a test file that ends while Apple is still "working" would
 * otherwise hold its jest worker for up to the whole delay after it closed the simulator (jest then kills the
 * worker and warns that it failed to exit gracefully).
 */
function slowAnswer(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** `drop` when the answer must be lost (the work was done, the client hears nothing). */
async function handleApple(simulator: Simulator, request: IncomingMessage, url: URL): Promise<[number, unknown, string] | 'drop'> {
  const now = Date.now();
  let team: SimTeam | undefined;
  try {
    const text = await readBody(request);
    const signer = await authenticate(request.headers.authorization, (issuerId, keyId) => simulator.teamOfKey(issuerId, keyId));
    team = signer.team;
    if (!team.budget.take(now)) throw appleErrors.rateLimited();
    const taken = simulator.takeFault(team, request.method ?? 'GET', url.pathname);
    const fault = taken?.effect;
    if (fault === 'slow') await slowAnswer(taken?.delayMs ?? 2_000);
    if (fault === 'unavailable') return [503, { errors: [{ id: 'sim-fault', status: '503', code: 'SERVICE_UNAVAILABLE', title: 'Service Unavailable', detail: 'The service is temporarily unavailable.' }] }, team.budget.header(now)];
    if (fault === 'forbidden') throw appleErrors.forbidden();
    let body: unknown;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        throw appleErrors.unparsableEntity();
      }
    }
    const reply = handleAppleRequest({
      method: request.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body,
      team,
      role: signer.key.role,
      now,
      baseUrl: simulator.url,
    });
    if (fault === 'lose-answer') return 'drop';
    return [reply.status, reply.body, team.budget.header(now)];
  } catch (error) {
    const appleError = error instanceof SimAppleError ? error : appleErrors.internal();
    if (appleError !== error) console.error('ASC simulator failure', error);
    return [appleError.status, appleError.toBody(), team?.budget.header(now) ?? UNKNOWN_KEY_RATE_LIMIT];
  }
}

function serve(simulator: Simulator, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', simulator.url);
  if (url.pathname.startsWith('/_sim/')) {
    handleControl(simulator, request, url)
      .then(([status, body]) => send(response, status, body))
      .catch((error: unknown) => {
        const known = error instanceof ControlError || error instanceof SimAppleError;
        if (!known) console.error('ASC simulator control failure', error);
        send(response, known ? error.status : 500, { error: error instanceof Error ? error.message : String(error) });
      });
    return;
  }
  void handleApple(simulator, request, url).then((answer) => {
    if (answer === 'drop') {
      response.socket?.destroy();
      return;
    }
    const [status, body, rateLimit] = answer;
    send(response, status, body, { 'x-rate-limit': rateLimit });
  });
}

export async function startAscSimulator(options: AscSimulatorOptions = {}): Promise<AscSimulator> {
  const host = options.host ?? '127.0.0.1';
  const authority = await certificateAuthority();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      // fetch keeps connections alive; without this, close() would wait for them to time out.
      server.closeAllConnections();
    });
  const processingSeconds = options.processingSeconds ?? defaultProcessingSeconds();
  const simulator = new Simulator(`http://${host}:${port}`, authority, processingSeconds, close);
  // Attached before any I/O can run: the port was unknown to anyone until now.
  server.on('request', (request, response) => serve(simulator, request, response));
  return simulator;
}
