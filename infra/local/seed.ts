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
import { createTenant } from '../../shared/domain/tenants/tenant-service';
import { createUser } from '../../shared/domain/users/user-service';

export interface DemoData {
  tenantId: string;
  userId: string;
  token: string;
  sourceId: string;
  /** Draft ids: the first two are complete (full client metadata), the last lacks an http(s) download URL. */
  draftIds: number[];
  /** An imported, enabled certificate of the demo user (device status/info). */
  device: { kid: string; udid: string };
}

/**
 * Demo data for a fresh local run: the default tenant (every localhost request belongs to it), one user
 * with a balance and a token, and a source holding drafts to publish.
 */
/** The demo drafts' files, served by demo-downloads.ts: each IPA says what its draft says, so it publishes. */
export const DEMO_APPS = [
  { file: 'demo-player-1.0.0.ipa', bundleId: 'com.example.demo.player', version: '1.0.0', build: '100' },
  { file: 'demo-reader-2.3.1.ipa', bundleId: 'com.example.demo.reader', version: '2.3.1', build: '231' },
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
    { name: 'Demo Unfinished', version: '0.1.0', download_url: 'not a url yet' },
  ];
  const draftIds: number[] = [];
  for (const draft of drafts) draftIds.push((await createApp(source.source_id, draft, now)).id);
  const device = await importDevice({ userId: user.userId, udid: '00008101-000A1B2C3D4E5F60', type: 'iphone', warranty: 1, pname: 'Demo iPhone', beizhu: 'demo' }, now);
  return { tenantId: DEFAULT_TENANT_ID, userId: user.userId, token, sourceId: source.source_id, draftIds, device: { kid: device.kid, udid: device.udid } };
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
