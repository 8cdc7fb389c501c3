import { randomBytes } from 'node:crypto';
import { nowSeconds } from '../../shared/clock';
import { addAccount } from '../../shared/domain/accounts/account-service';
import type { AccountMode } from '../../shared/records/account';
import { createCode } from '../../shared/domain/pricing/activation-codes';
import type { AscSimulator } from '../asc-simulator/server';
import { simulatedAccountInput } from '../admin/simulated-account';
import { getTenant } from '../../shared/db/repositories/tenant-repository';
import { createApp, createSource } from '../../shared/domain/sources/source-admin';
import type { AppMetadata } from '../../shared/records/app';
import { importDevice } from '../../shared/domain/devices/device-import';
import { DEFAULT_TENANT_ID } from '../../shared/records/tenant';
import { changeTenantSettings, createTenant, requireTenant } from '../../shared/domain/tenants/tenant-service';
import { createPlan } from '../../shared/domain/subscriptions/plan-service';
import { subscribe } from '../../shared/domain/subscriptions/subscription-service';
import { createUser, requireUser } from '../../shared/domain/users/user-service';
import { RuleError } from '../../shared/domain/errors';
import { setPassword } from '../../shared/domain/console/console-admin';

export interface DemoData {
  tenantId: string;
  userId: string;
  token: string;
  sourceId: string;
  /** Draft ids: the first two publish; the third says 2.2.0 for a 2.1.0 IPA (publish: `ipa_mismatch`). */
  draftIds: number[];
  /** An imported, enabled certificate of the demo user (device status/info). */
  device: { kid: string; udid: string };
  /** How the demo user signs in to the console: set as the operator CLI's `user set-password` sets it. */
  console: { login: string; password: string };
}

/** The demo user's console login; a later demo user on the same tenant gets its own (logins are unique per tenant). */
export const DEMO_LOGIN = 'demo';

/**
 * Gives the demo user a console password, new at every start (the local runtime only: its data lives in
 * memory and it listens on loopback), as `user set-password` would.
 */
async function seedConsoleLogin(userId: string): Promise<DemoData['console']> {
  const password = `demo-${randomBytes(6).toString('base64url')}`;
  try {
    return { login: (await setPassword({ userId, password, login: DEMO_LOGIN })).login, password };
  } catch (error) {
    if (!(error instanceof RuleError) || error.reason !== 'login_taken') throw error;
    return { login: (await setPassword({ userId, password, login: `${DEMO_LOGIN}-${userId}` })).login, password };
  }
}

/**
 * Demo data for a fresh local run: the default tenant (every localhost request belongs to it), one user
 * with a balance and a token, and a source holding drafts to publish.
 */
/**
 * The demo drafts' files, served by demo-downloads.ts. The first two say what their drafts say, so they
 * publish; the third is a 2.1.0 build behind a draft that says 2.2.0, so its publish shows the IPA check's
 * refusal (40003 `ipa_mismatch`) as the README does.
 */
export const DEMO_APPS = [
  { file: 'demo-player-1.0.0.ipa', bundleId: 'com.example.demo.player', version: '1.0.0', build: '100' },
  { file: 'demo-reader-2.3.1.ipa', bundleId: 'com.example.demo.reader', version: '2.3.1', build: '231' },
  { file: 'demo-notes-2.1.0.ipa', bundleId: 'com.example.demo.notes', version: '2.1.0', build: '210' },
] as const;

/** `downloadsUrl`: where the demo IPAs are served (npm start's loopback host). */
export async function seedDemo(downloadsUrl = 'https://downloads.example.com'): Promise<DemoData> {
  const now = nowSeconds();
  if (!(await getTenant(DEFAULT_TENANT_ID))) {
    await createTenant({ tenantId: DEFAULT_TENANT_ID, name: 'Demo reseller', lang: 'zh' }, now);
  }
  const { user, token } = await createUser({ tenantId: DEFAULT_TENANT_ID, name: 'demo', balance: 10_000 }, now);
  const source = await createSource({ userId: user.userId, name: 'Demo source' }, now);
  const drafts: Partial<AppMetadata>[] = [
    {
      name: 'Demo Player',
      version: '1.0.0',
      download_url: `${downloadsUrl}/${DEMO_APPS[0].file}`,
      bundle_identifier: 'com.example.demo.player',
      developer_name: 'Demo Studio',
      description: 'Plays your media.',
      icon_url: 'https://downloads.example.com/icons/demo-player.png',
      size: 24_117_248,
      version_description: 'First release.',
      tint_color: '3478F6',
    },
    {
      name: 'Demo Reader',
      version: '2.3.1',
      download_url: `${downloadsUrl}/${DEMO_APPS[1].file}`,
      bundle_identifier: 'com.example.demo.reader',
      developer_name: 'Demo Studio',
      description: 'Reads your books.',
      icon_url: 'https://downloads.example.com/icons/demo-reader.png',
      size: 12_582_912,
      version_description: 'Bug fixes.',
    },
    {
      name: 'Demo Notes',
      version: '2.2.0',
      download_url: `${downloadsUrl}/${DEMO_APPS[2].file}`,
      bundle_identifier: 'com.example.demo.notes',
      developer_name: 'Demo Studio',
      description: 'Takes notes.',
      icon_url: 'https://downloads.example.com/icons/demo-notes.png',
      size: 8_388_608,
      version_description: 'Says 2.2.0; its file is still the 2.1.0 build.',
    },
  ];
  const draftIds: number[] = [];
  for (const draft of drafts) draftIds.push((await createApp(source.source_id, draft, now)).id);
  const device = await importDevice({ userId: user.userId, udid: '00008101-000A1B2C3D4E5F60', type: 'iphone', warranty: 1, pname: 'Demo iPhone', beizhu: 'demo' }, now);
  const consoleLogin = await seedConsoleLogin(user.userId);
  return { tenantId: DEFAULT_TENANT_ID, userId: user.userId, token, sourceId: source.source_id, draftIds, device: { kid: device.kid, udid: device.udid }, console: consoleLogin };
}

export interface DemoPlanData {
  planId: string;
  /** The plan's limit of sources (the README's "third source" example meets it). */
  sources: number;
  trialDays: number;
}

export const DEMO_PLAN = { name: 'Demo', price: 500, days: 30, sources: 2, appsPerSource: 500, publishedPerSource: 100 } as const;
const DEMO_TRIAL_DAYS = 7;

/**
 * The demo tenant sells one plan (2 sources) with a 7-day trial, and the demo user runs that trial: so the
 * plan examples work (a third source is over the quota) and the demo user may write to its sources (on a
 * tenant that sells plans, writes need a running subscription). Another user created with the CLI sees the
 * trial on offer. A second call (another demo user on the same tenant) reuses the plan.
 */
export async function seedDemoPlan(userId: string): Promise<DemoPlanData> {
  const now = nowSeconds();
  const tenant = await requireTenant(DEFAULT_TENANT_ID);
  let planId = tenant.settings.trialPlanId;
  if (!planId) {
    planId = (await createPlan(DEFAULT_TENANT_ID, DEMO_PLAN, now)).planId;
    await changeTenantSettings(DEFAULT_TENANT_ID, { settings: { trialPlanId: planId, trialDays: DEMO_TRIAL_DAYS } });
  }
  const owner = await requireUser(userId);
  await subscribe(owner, await requireTenant(DEFAULT_TENANT_ID), { trial: true }, now);
  return { planId, sources: DEMO_PLAN.sources, trialDays: DEMO_TRIAL_DAYS };
}

export interface DemoAddData {
  /** Simulated public-pool accounts of the default tenant, one per mode. */
  accounts: { accountId: string; mode: AccountMode; teamId: string }[];
  /** An unused instant activation code (warranty 1) for the demo user. */
  code: string;
}

/** Apple accounts for the add routes: a team in the simulator per mode, in the default tenant's public pool. */
export async function seedDemoAccounts(sim: AscSimulator, userId: string): Promise<DemoAddData> {
  const now = nowSeconds();
  const accounts: DemoAddData['accounts'] = [];
  for (const mode of ['instant', 'review'] as const) {
    const team = await sim.createTeam({ mode, name: `Demo ${mode} team` });
    const account = await addAccount(simulatedAccountInput(team, { pool: 'public', tenantId: DEFAULT_TENANT_ID, mode }), now);
    accounts.push({ accountId: account.accountId, mode, teamId: team.teamId });
  }
  const code = await createCode({ userId, mode: 'instant', tier: 1 }, now);
  return { accounts, code: code.code };
}
