import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { readP12 } from '../../../shared/apple/p12-reader';
import { nowSeconds } from '../../../shared/clock';
import { getAccount, listAllAccounts } from '../../../shared/db/repositories/account-repository';
import { accountView, ACCOUNT_MODES, APPLE_BASE_URL, POOLS } from '../../../shared/records/account';
import { addAccount, type NewAccountInput } from '../../../shared/domain/accounts/account-service';
import { runRevocationSweep } from '../../../shared/domain/accounts/revocation-sweep';
import { logger } from '../../../shared/logger';
import { CliError, flagInt, flagText, parseFlags, type Command } from '../cli-types';
import { simulatorControl } from './simulator-control';
import { simulatedAccountInput, type SimulatedTeamAnswer } from '../simulated-account';

const tiersFlag = () =>
  z.pipe(
    flagText(40).check(z.regex(/^\d(,\d)*$/, 'must be a comma-separated list of tiers, e.g. 0,1,2,3')),
    z.transform((s: string) => [...new Set(s.split(',').map(Number))]),
  );

/** `2027-06-30`, an ISO timestamp, or epoch seconds. */
const expiryFlag = () =>
  z.pipe(
    flagText(40),
    z.transform((s: string, ctx) => {
      const seconds = /^\d+$/.test(s) ? Number(s) : Math.floor(Date.parse(s) / 1000);
      if (!Number.isFinite(seconds)) ctx.issues.push({ code: 'custom', message: 'must be a date (2027-06-30) or epoch seconds', input: s });
      return seconds;
    }),
  );

const readText = (path: string, what: string) => {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new CliError(`cannot read the ${what} at ${path}: ${(error as Error).message}`);
  }
};

export const accountCommands: Record<string, Command> = {
  /**
   * `--simulated`: a new team in the App Store Connect simulator (`npm start`'s, or ASC_SIM_URL). Otherwise a
   * real team: `--issuer-id --key-id --p8 <file> --certificate-id --bundle-id --p12 <file> --p12-password`.
   */
  'account add': async (flags) => {
    const f = parseFlags(flags, {
      pool: z._default(z.enum(POOLS), 'public'),
      tenant: z.optional(flagText()),
      user: z.optional(flagText()),
      mode: z.enum(ACCOUNT_MODES),
      simulated: z.optional(z.literal(true)),
      weight: z.optional(flagInt()),
      tiers: z.optional(tiersFlag()),
      slots: z.optional(flagInt({ min: 1 })),
      'issuer-id': z.optional(flagText()),
      'key-id': z.optional(flagText()),
      p8: z.optional(flagText(1000)),
      'certificate-id': z.optional(flagText()),
      'bundle-id': z.optional(flagText()),
      p12: z.optional(flagText(1000)),
      'p12-password': z.optional(z.string()),
      'team-id': z.optional(flagText()),
      'expires-at': z.optional(expiryFlag()),
      'base-url': z.optional(z.url()),
    });
    const common = { pool: f.pool, tenantId: f.tenant, userId: f.user, mode: f.mode, weight: f.weight, tiers: f.tiers, slotsPerClass: f.slots };
    let input: NewAccountInput;
    if (f.simulated) {
      const realOnly = (['issuer-id', 'key-id', 'p8', 'certificate-id', 'bundle-id', 'p12', 'p12-password', 'base-url'] as const).filter((k) => f[k] !== undefined);
      if (realOnly.length) throw new CliError(`--simulated creates its own team: drop ${realOnly.map((k) => `--${k}`).join(', ')}`);
      const team = await simulatorControl<SimulatedTeamAnswer>('POST', '/_sim/teams', { mode: f.mode });
      input = simulatedAccountInput(team, { ...common, expiresAt: f['expires-at'] });
    } else {
      const required = (['issuer-id', 'key-id', 'p8', 'certificate-id', 'bundle-id', 'p12', 'p12-password'] as const).filter((k) => f[k] === undefined);
      if (required.length) throw new CliError(`a real account needs ${required.map((k) => `--${k}`).join(', ')} (or pass --simulated)`);
      const p8 = readText(f.p8!, '.p8 key').toString('utf8');
      const p12Base64 = readText(f.p12!, '.p12').toString('base64');
      // Refuse files that cannot work now, rather than on the first customer's add.
      try {
        createPrivateKey(p8);
      } catch {
        throw new CliError(`--p8 ${f.p8} is not a PEM private key (the .p8 App Store Connect gives)`);
      }
      let identity: ReturnType<typeof readP12>;
      try {
        identity = readP12(p12Base64, f['p12-password']!);
      } catch (error) {
        throw new CliError(`--p12: ${(error as Error).message}`);
      }
      if (!identity.hasPrivateKey) throw new CliError(`--p12 ${f.p12} holds no private key: export the certificate with its key`);
      input = {
        ...common,
        expiresAt: f['expires-at'] ?? 0,
        simulated: false,
        teamId: f['team-id'] ?? '',
        baseUrl: f['base-url'] ?? APPLE_BASE_URL,
        issuerId: f['issuer-id']!,
        keyId: f['key-id']!,
        certificateId: f['certificate-id']!,
        bundleIdId: f['bundle-id']!,
        secrets: { privateKeyPem: p8, p12Base64, p12Password: f['p12-password']! },
      };
    }
    const account = await addAccount(input, nowSeconds());
    return accountView(account);
  },

  'account list': async (flags) => {
    const f = parseFlags(flags, { tenant: z.optional(flagText()), user: z.optional(flagText()) });
    const accounts = (await listAllAccounts()).filter((a) => (!f.tenant || a.tenantId === f.tenant) && (!f.user || a.ownerUserId === f.user));
    return { accounts: accounts.sort((a, b) => a.weight - b.weight).map(accountView) };
  },

  /**
   * A simulated account: Apple (the simulator) revokes the team's distribution certificate. Either
   * way the revocation sweep then checks Apple for this account and marks its certificates revoked.
   */
  'account revoke': async (flags) => {
    const f = parseFlags(flags, { account: flagText() });
    const account = await getAccount(f.account);
    if (!account) throw new CliError(`unknown account ${f.account}`);
    if (account.simulated && account.status !== 'revoked') {
      await simulatorControl('POST', `/_sim/teams/${encodeURIComponent(account.teamId)}/revoke-certificate`, {}, account.baseUrl);
    }
    // stdout carries the command's JSON only; the sweep's outcome is in that JSON (or the error below).
    logger.setLogLevel('SILENT');
    const report = await runRevocationSweep(nowSeconds(), { accountId: account.accountId });
    const after = await getAccount(account.accountId);
    if (after?.status !== 'revoked') {
      throw new CliError(report.errors ? `could not reach App Store Connect for ${account.accountId}; nothing changed` : `Apple still lists certificate ${account.certificateId} of ${account.accountId}: revoke it in Apple's portal first; nothing changed`);
    }
    return { account_id: account.accountId, revoked_devices: report.revokedDevices };
  },
};
