/**
 * What a soak runs against, started the way `npm start` starts the product (infra/local): DynamoDB Local, the
 * tables, the default tenant, the App Store Connect simulator, and the API with its background jobs — the
 * API in a child process the soak can kill and start again. Plus the soak's own world: two tenants, their
 * Apple accounts, users with money and activation codes, sources with apps, and a download host.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTables } from '../../shared/db/create-tables';
import { addAccount } from '../../shared/domain/accounts/account-service';
import type { AccountMode } from '../../shared/records/account';
import { createCode } from '../../shared/domain/pricing/activation-codes';
import { createApp, createSource } from '../../shared/domain/sources/source-admin';
import { createTenant } from '../../shared/domain/tenants/tenant-service';
import { createUser } from '../../shared/domain/users/user-service';
import { setPassword } from '../../shared/domain/console/console-admin';
import { createPlan } from '../../shared/domain/subscriptions/plan-service';
import { subscribe } from '../../shared/domain/subscriptions/subscription-service';
import { changeTenantSettings, requireTenant } from '../../shared/domain/tenants/tenant-service';
import { nowSeconds } from '../../shared/clock';
import { simulatedAccountInput } from '../../infra/admin/simulated-account';
import { startAscSimulator, type AscSimulator } from '../../infra/asc-simulator/server';
import { startDynamoDbLocal, waitForDynamoDb } from '../../infra/local/dynamodb-local';
import { freePort } from '../../infra/local/free-port';
import { seedDemo } from '../../infra/local/seed';
import { buildIpa, defaultInfo, machO } from '../../infra/local/ipa-builder';
import { certificatePem, createDeviceCa, type DeviceCa } from '../../infra/device-simulator/device-pki';
import { addTrustAnchor } from '../../shared/domain/udid-capture/trust-anchors';
import { WebhookReceiver } from './webhooks';

export interface SoakUser {
  userId: string;
  token: string;
  tenantId: string;
  host: string | undefined;
  /** The balance it was given: the only credit besides refunds. */
  initialBalance: number;
  sourceId: string;
  /** Unused activation codes (instant, tier 1), taken by coded adds. */
  codes: string[];
  /** As many more, set aside for customers to redeem on their page. */
  customerCodes: string[];
  /** The API key of an Apple team of its own, which the mix connects (`/api/user/apple-accounts`). */
  appleKey: { issuer_id: string; key_id: string; private_key: string };
  /** The console sign-in the mix uses (`/api/user/session`): the user's name and `SOAK_PASSWORD`. */
  login: string;
}

/** Every soak user's console password (set before the run, like the operator's `user set-password`). */
export const SOAK_PASSWORD = 'soak-console-password';

export interface SoakAccount {
  accountId: string;
  teamId: string;
  tenantId: string;
  mode: AccountMode;
}

export interface SoakTenant {
  tenantId: string;
  host: string | undefined;
  /**
   * UDIDs the tenant's users add, overlapping between users, and customers' phones bring. Most adds name no
   * type (iPhone), some name `deviceType: 'ipad'` and some phones are captured as iPads, on the same UDIDs:
   * whichever registers a UDID first fixes its class at Apple, and the later adds naming the other one must
   * still count Apple's class (free slots = 100 − registrations, per class).
   */
  udids: string[];
}

export interface SoakWorld {
  tenants: SoakTenant[];
  users: SoakUser[];
  accounts: SoakAccount[];
  downloadUrl: string;
  /** Per tenant that sells plans: the plan its users buy (their writes live within it). */
  plans: Map<string, string>;
}

/** The API process: where it listens, and the kill-and-restart the soak's fault schedule uses. */
export interface ApiProcess {
  url: string;
  /** SIGKILL now (requests in flight die with it), then start again on the same port; resolves once it serves. */
  restart(): Promise<{ killedAt: number; readyAt: number }>;
  stop(): Promise<void>;
}

export interface Harness {
  sim: AscSimulator;
  api: ApiProcess;
  world: SoakWorld;
  /** The device CA the customers' phones chain to, trusted as `udid anchor-add` trusts one. */
  deviceCa: DeviceCa;
  /** Where the users' webhooks deliver. */
  receiver: WebhookReceiver;
  stop(): Promise<void>;
}

/** A storefront outside the service that the tenants registered as a return target. */
export const SOAK_STOREFRONT = 'https://shop.example.com/after-capture';

const hex = (bytes: number) => randomBytes(bytes).toString('hex').toUpperCase();
const udid25 = () => `${hex(4)}-${hex(8)}`;

function startApiProcess(port: number, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  // Node itself with tsx's loader, not the tsx wrapper: a SIGKILL must reach the process that serves.
  const child = spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), 'test/soak/api-process.ts')], {
    env: { ...env, PORT: String(port) },
    // SOAK_API_LOG=<file> keeps the API's log lines (at SOAK_API_LOG_LEVEL) for reading a violation's story.
    stdio: ['ignore', 'pipe', env.SOAK_API_LOG ? openSync(env.SOAK_API_LOG, 'a') : 'inherit'],
  });
  // The soak ending for any reason ends the process it started.
  const endWithUs = () => child.kill('SIGKILL');
  process.once('exit', endWithUs);
  child.once('exit', () => process.off('exit', endWithUs));
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const ready = /ready (\S+)/.exec(out);
      if (ready) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve({ child, url: ready[1]! });
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the API process exited (${String(code)}) before it served`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/**
 * The IPA an app's download link names, as publishing inspects it: `/app-<a>.ipa` is seeded app `a` (version
 * 1.0.0), `/mix-app-<n>.ipa` the mix's n-th app (version 1.<n>.0); both of bundle `com.example.soak.app<n % 3>`.
 */
async function soakIpa(path: string): Promise<Buffer | undefined> {
  const match = /^\/(mix-)?app-(\d+)\.ipa$/.exec(path);
  if (!match) return undefined;
  const n = Number(match[2]);
  const bundle = `com.example.soak.app${n % 3}`;
  const info = defaultInfo({ CFBundleIdentifier: bundle, CFBundleShortVersionString: match[1] ? `1.${n}.0` : '1.0.0', CFBundleVersion: String(n) });
  return buildIpa({ info, executable: machO({ codeBytes: 2_000, entitlements: { 'application-identifier': `SOAKTEAM.${bundle}` } }) });
}

/** A loopback host the apps' download links point at: their IPAs, and a small body for anything else (icons, webhooks). */
function startDownloadHost(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    void soakIpa(new URL(req.url ?? '/', 'http://soak').pathname).then(
      (ipa) => {
        const body = ipa ?? Buffer.alloc(16);
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(body.length) });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => res.writeHead(500).end(),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

export interface HarnessOptions {
  usersPerTenant: number;
  udidsPerTenant: number;
  codesPerUser: number;
  log: (line: string) => void;
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    // Like `npm start`: a DynamoDB Local of its own unless one is given (the test run's).
    if (!process.env.DYNAMODB_ENDPOINT) {
      const dynamo = await startDynamoDbLocal(await freePort(), 180_000);
      stops.push(() => dynamo.stop());
      process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    } else await waitForDynamoDb(process.env.DYNAMODB_ENDPOINT, 60_000);
    process.env.TABLE_PREFIX = `soak${hex(3).toLowerCase()}-`;
    process.env.FETCH_ALLOW_PRIVATE ??= '1';
    if (!process.env.ACCOUNT_SECRETS_KEY_FILE) {
      const keyDir = mkdtempSync(join(tmpdir(), 'soak-key-'));
      process.env.ACCOUNT_SECRETS_KEY_FILE = join(keyDir, 'account-secrets.key');
      stops.push(async () => rmSync(keyDir, { recursive: true, force: true }));
    }
    await createTables();
    await seedDemo();
    options.log(`tables ${process.env.TABLE_PREFIX}* on ${process.env.DYNAMODB_ENDPOINT}`);

    const sim = await startAscSimulator({ port: 0, processingSeconds: 4 });
    stops.push(() => sim.close());
    // Resellers' own accounts are connected against the simulator, as `npm start` does.
    process.env.APPLE_API_BASE_URL = sim.url;
    const download = await startDownloadHost();
    stops.push(() => new Promise((resolve) => download.server.close(() => resolve())));

    const world = await seedWorld(sim, download.url, options);
    // The device simulator's root, installed as the operator installs Apple's (`udid anchor-add` calls this).
    const deviceCa = createDeviceCa('Soak devices');
    await addTrustAnchor(Buffer.from(certificatePem(deviceCa.root)), nowSeconds());
    const receiver = new WebhookReceiver();
    await receiver.start();
    stops.push(() => receiver.stop());
    options.log(`world: ${world.tenants.length} tenants, ${world.users.length} users, ${world.accounts.length} Apple accounts`);

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      POWERTOOLS_LOG_LEVEL: process.env.SOAK_API_LOG_LEVEL ?? 'SILENT',
      POWERTOOLS_METRICS_DISABLED: 'true',
      TENANT_CACHE_SECONDS: '30',
    };
    const port = await freePort();
    let current = await startApiProcess(port, env);
    const api: ApiProcess = {
      url: current.url,
      async restart() {
        const killedAt = Date.now();
        await killed(current.child);
        current = await startApiProcess(port, env);
        return { killedAt, readyAt: Date.now() };
      },
      stop: () => killed(current.child),
    };
    stops.push(() => api.stop());
    return { sim, api, world, deviceCa, receiver, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function seedWorld(sim: AscSimulator, downloadUrl: string, options: HarnessOptions): Promise<SoakWorld> {
  const now = nowSeconds();
  const other = await createTenant({ name: 'Soak tenant B', domain: `soak-${hex(3).toLowerCase()}.example.com`, lang: 'en' }, now);
  const tenants: SoakTenant[] = [
    { tenantId: 'default', host: undefined, udids: Array.from({ length: options.udidsPerTenant }, udid25) },
    { tenantId: other.tenantId, host: other.domain, udids: Array.from({ length: options.udidsPerTenant }, udid25) },
  ];
  // The storefront the mix's tenant profile links return to, registered as its operator would
  // (`tenant set --return-targets`): a capture may return only to the tenant's own hosts and such targets.
  for (const tenant of tenants) await changeTenantSettings(tenant.tenantId, { settings: { returnTargets: [SOAK_STOREFRONT] } });
  const accounts: SoakAccount[] = [];
  for (const tenant of tenants) {
    // Two instant accounts, so revoking one leaves the tenant selling; one review account.
    for (const [mode, weight] of [['instant', 1], ['instant', 2], ['review', 1]] as const) {
      const team = await sim.createTeam({ mode, name: `Soak ${mode} ${weight}` });
      const account = await addAccount(simulatedAccountInput(team, { pool: 'public', tenantId: tenant.tenantId, mode, weight }), now);
      accounts.push({ accountId: account.accountId, teamId: team.teamId, tenantId: tenant.tenantId, mode });
    }
  }
  // The second tenant sells a plan, roomy enough for the mix's sources and apps; its users buy it below.
  const plan = await createPlan(other.tenantId, { name: 'Soak plan', price: 100, days: 30, sources: 1000, appsPerSource: 1000, publishedPerSource: 1000 }, now);
  const plans = new Map([[other.tenantId, plan.planId]]);
  const users: SoakUser[] = [];
  for (const tenant of tenants) {
    for (let i = 0; i < options.usersPerTenant; i++) {
      // One user per tenant is short of money, so refusals for balance are part of the mix.
      const initialBalance = i === 0 ? 5_000 : 50_000_000;
      const { user, token } = await createUser({ tenantId: tenant.tenantId, name: `soak-${i}`, balance: initialBalance }, now);
      await setPassword({ userId: user.userId, password: SOAK_PASSWORD, login: `soak-${i}` });
      const planId = plans.get(tenant.tenantId);
      if (planId) await subscribe(user, await requireTenant(tenant.tenantId), { trial: false, plan: planId }, now);
      const source = await createSource({ userId: user.userId, name: `Soak source ${i}` }, now);
      for (let a = 0; a < 3; a++) {
        await createApp(source.source_id, { name: `Soak App ${a}`, version: '1.0.0', download_url: `${downloadUrl}/app-${a}.ipa`, bundle_identifier: `com.example.soak.app${a}`, developer_name: 'Soak', size: 1_048_576, icon_url: `${downloadUrl}/icon-${a}.png`, description: 'A soak app' }, now);
      }
      const newCodes = async () => {
        const codes: string[] = [];
        for (let c = 0; c < options.codesPerUser; c++) codes.push((await createCode({ userId: user.userId, mode: 'instant', tier: 1 }, now)).code);
        return codes;
      };
      const own = await sim.createTeam({ mode: 'instant', name: `Soak own ${i}` });
      const appleKey = { issuer_id: own.issuerId, key_id: own.keyId, private_key: own.privateKeyPem };
      users.push({ userId: user.userId, token, login: `soak-${i}`, tenantId: tenant.tenantId, host: tenant.host, initialBalance, sourceId: source.source_id, codes: await newCodes(), customerCodes: await newCodes(), appleKey });
    }
  }
  return { tenants, users, accounts, downloadUrl, plans };
}
