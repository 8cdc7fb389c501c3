/**
 * What the add-device tests share: the local API over this file's own tables, a real App Store Connect
 * simulator on a free port, accounts on simulated teams, users, UDIDs.
 */
import { randomBytes } from 'node:crypto';
import { startAscSimulator, type AscSimulator, type SimulatedTeam } from '../../infra/asc-simulator/server';
import { addAccount } from '../../shared/domain/accounts/account-service';
import { simulatedAccountInput } from '../../infra/admin/simulated-account';
import type { Account, AccountMode, PoolKind } from '../../shared/records/account';
import { getUser } from '../../shared/db/repositories/user-repository';
import { startTestApi, type ApiResponse, type TestApi } from './api';
import { makeUser } from './fixtures';

export interface Testbed {
  api: TestApi;
  sim: AscSimulator;
  close(): Promise<void>;
}

export async function startTestbed(): Promise<Testbed> {
  const api = await startTestApi();
  const sim = await startAscSimulator({ port: 0, processingSeconds: 3600 });
  return {
    api,
    sim,
    async close() {
      await api.close();
      await sim.close();
    },
  };
}

export async function simulatedAccount(
  sim: AscSimulator,
  options: { mode: AccountMode; simulatedTeamMode?: AccountMode; pool?: PoolKind; tenantId?: string; userId?: string; weight?: number; tiers?: number[]; deviceLimitPerClass?: number; slotsPerClass?: number },
): Promise<{ account: Account; team: SimulatedTeam }> {
  const team = await sim.createTeam({ mode: options.simulatedTeamMode ?? options.mode, ...(options.deviceLimitPerClass ? { deviceLimitPerClass: options.deviceLimitPerClass } : {}) });
  const account = await addAccount(
    simulatedAccountInput(team, {
      pool: options.pool ?? 'public',
      tenantId: options.tenantId,
      userId: options.userId,
      mode: options.mode,
      weight: options.weight,
      tiers: options.tiers,
      slotsPerClass: options.slotsPerClass,
    }),
    Math.floor(Date.now() / 1000),
  );
  return { account, team };
}

/** A user with money for the adds a test makes, as the add tests address one: by id and token. */
export async function newUser(balance = 100_000, tenantId = 'default') {
  const { user, token } = await makeUser({ tenantId, balance });
  return { userId: user.userId, token };
}

export async function balanceOf(userId: string): Promise<number> {
  return (await getUser(userId))!.balance;
}

/** A 25-character UDID (`XXXXXXXX-XXXXXXXXXXXXXXXX`) or a 40-character one, random. */
export function udid25(): string {
  const hex = randomBytes(12).toString('hex').toUpperCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 24)}`;
}

export function udid40(): string {
  return randomBytes(20).toString('hex');
}

export function add(api: TestApi, params: Record<string, unknown>, options: { path?: string; lang?: string; via?: 'json' | 'form' | 'query' } = {}): Promise<ApiResponse> {
  const path = options.path ?? '/api/adddevice/v2';
  const headers = { 'X-Lang': options.lang ?? 'en' };
  if (options.via === 'query') {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return api.request('GET', `${path}?${query}`, { headers });
  }
  if (options.via === 'form') return api.request('POST', path, { headers, form: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
  return api.request('POST', path, { headers, json: params });
}
