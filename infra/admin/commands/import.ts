import * as z from 'zod/mini';
import { existsSync } from 'node:fs';
import { nowSeconds } from '../../../shared/clock';
import { requireUser } from '../../../shared/domain/users/user-service';
import { CliError, flagInt, flagText, parseFlags, type Command } from '../cli-types';
import { importOpeningBalance } from '../../../shared/domain/ledger/opening-balance';
import { getSource } from '../../../shared/db/repositories/source-repository';
import { appsKind } from '../import/kinds/apps';
import { devicesKind } from '../import/kinds/devices';
import { blocklistKind, monitorKind, unlockCodesKind } from '../import/kinds/protection';
import { runImport, type ImportKind } from '../import/runner';
import { parseUtcOffset } from '../import/time-cells';

/** The file kinds, by flag; exactly one per run. */
const FILE_FLAGS = ['devices', 'apps', 'unlock-codes', 'blocklist', 'monitor'] as const;

/** The kinds that belong to a source, by flag. */
const SOURCE_KINDS = { apps: appsKind, 'unlock-codes': unlockCodesKind, blocklist: blocklistKind, monitor: monitorKind } as const;

const file = z.optional(flagText(4096).check(z.refine((path) => existsSync(path), 'no such file')));

export const importCommands: Record<string, Command> = {
  import: async (flags, io) => {
    const f = parseFlags(flags, {
      user: flagText(),
      devices: file,
      apps: file,
      'unlock-codes': file,
      blocklist: file,
      monitor: file,
      source: z.optional(flagText(128)),
      'dry-run': z.optional(z.literal(true, { error: 'takes no value' })),
      format: z.optional(z.enum(['tsv', 'csv'], { error: 'must be tsv or csv' })),
      'utc-offset': z.optional(flagText(6).check(z.refine((v) => parseUtcOffset(v) !== undefined, 'must look like +08:00'))),
      balance: z.optional(flagInt()),
    });
    const given = FILE_FLAGS.filter((flag) => f[flag] !== undefined);
    if (f.balance !== undefined) {
      // The panel's balance of this user, in cents: the first entry of the user's ledger.
      if (given.length > 0 || f.source !== undefined) throw new CliError('--balance is imported on its own: no file and no --source with it');
      const user = await requireUser(f.user);
      const opening = await importOpeningBalance({ userId: user.userId, cents: f.balance, now: nowSeconds(), dryRun: f['dry-run'] === true });
      return { kind: 'balance', dry_run: f['dry-run'] === true, user_id: user.userId, ...opening };
    }
    if (given.length !== 1) throw new CliError(`give exactly one of ${FILE_FLAGS.map((flag) => `--${flag} FILE`).join(', ')}, or --balance CENTS`);
    const user = await requireUser(f.user);
    const utcOffsetSeconds = f['utc-offset'] === undefined ? 0 : parseUtcOffset(f['utc-offset'])!;
    const now = nowSeconds();
    const flag = given[0]!;
    let kind: ImportKind<unknown>;
    if (flag === 'devices') {
      if (f.source !== undefined) throw new CliError('--source does not apply to --devices');
      kind = devicesKind({ user, now, utcOffsetSeconds }) as ImportKind<unknown>;
    } else {
      if (f.source === undefined) throw new CliError(`--${flag} needs --source S`);
      const source = await getSource(f.source);
      // The same answer for a missing source and someone else's, as the management routes give.
      if (!source || source.owner_id !== user.userId || source.tenant_id !== user.tenantId) throw new CliError(`unknown source ${f.source} for user ${user.userId}`);
      kind = SOURCE_KINDS[flag]({ source, now, utcOffsetSeconds }) as ImportKind<unknown>;
    }
    const summary = await runImport(kind, { file: f[flag]!, dryRun: f['dry-run'] === true, format: f.format, progress: io?.err ?? process.stderr });
    return { ...summary };
  },
};
