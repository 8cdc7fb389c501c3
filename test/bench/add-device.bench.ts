/**
 * `npm run bench:add`: an instant add over HTTP against the App Store Connect simulator — latency (p50/p99)
 * and the DynamoDB calls one add makes (auth, rate limit, lock, lookups, price, account, id counter, the one
 * transaction). Each iteration adds a new UDID, so every one registers with Apple and creates a profile.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAscSimulator, type AscSimulator } from '../../infra/asc-simulator/server';
import { addAccount } from '../../shared/domain/accounts/account-service';
import { simulatedAccountInput } from '../../infra/admin/simulated-account';
import { createUser } from '../../shared/domain/users/user-service';
import type { Benchmark } from './harness';

if (!process.env.ACCOUNT_SECRETS_KEY_FILE) {
  const keyDir = mkdtempSync(join(tmpdir(), 'bench-key-'));
  process.env.ACCOUNT_SECRETS_KEY_FILE = join(keyDir, 'account-secrets.key');
  process.once('exit', () => rmSync(keyDir, { recursive: true, force: true }));
}

/** The runner has no teardown hook: the simulator closes itself once the adds stop, so the process can exit. */
function closeWhenIdle(sim: AscSimulator): () => void {
  let timer: NodeJS.Timeout | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(() => void sim.close(), 3_000);
  };
}

async function instantAccounts(sim: AscSimulator, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const team = await sim.createTeam({ mode: 'instant' });
    await addAccount(simulatedAccountInput(team, { pool: 'public', tenantId: 'default', mode: 'instant', weight: i }), Math.floor(Date.now() / 1000));
  }
}

export const benchmarks: Benchmark[] = [
  {
    name: 'POST /api/adddevice/v2 instant, new UDID (register + profile on the simulator)',
    iterations: 200,
    prepare: async ({ api }) => {
      const sim = await startAscSimulator({ port: 0 });
      const touch = closeWhenIdle(sim);
      touch();
      // 100 iPhones per team; the add route allows 60 adds a minute per user.
      await instantAccounts(sim, 4);
      const tokens: string[] = [];
      for (let i = 0; i < 8; i++) tokens.push((await createUser({ tenantId: 'default', balance: 10_000_000 }, 1)).token);
      return async (i) => {
        touch();
        const udid = randomBytes(20).toString('hex');
        const res = await api.request('POST', '/api/adddevice/v2', { json: { token: tokens[Math.floor(i / 50)], udid } });
        const data = res.body.data as { mobileprovision?: string } | undefined;
        if (res.body.code !== 1 || !data?.mobileprovision) throw new Error(`add failed: ${JSON.stringify(res.body).slice(0, 300)}`);
      };
    },
  },
];
