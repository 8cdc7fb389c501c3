import * as z from 'zod/mini';
import { existsSync } from 'node:fs';
import { nowSeconds } from '../../../shared/clock';
import { requireUser } from '../../../shared/domain/users/user-service';
import { CliError, flagText, parseFlags, type Command } from '../cli-types';
import { devicesKind } from '../import/kinds/devices';
import { runImport, type ImportKind } from '../import/runner';
import { parseUtcOffset } from '../import/time-cells';

/** The file kinds, by flag; exactly one per run. */
const FILE_FLAGS = ['devices'] as const;

const file = z.optional(flagText(4096).check(z.refine((path) => existsSync(path), 'no such file')));

export const importCommands: Record<string, Command> = {
  import: async (flags, io) => {
    const f = parseFlags(flags, {
      user: flagText(),
      devices: file,
      'dry-run': z.optional(z.literal(true, { error: 'takes no value' })),
      format: z.optional(z.enum(['tsv', 'csv'], { error: 'must be tsv or csv' })),
      'utc-offset': z.optional(flagText(6).check(z.refine((v) => parseUtcOffset(v) !== undefined, 'must look like +08:00'))),
    });
    const given = FILE_FLAGS.filter((flag) => f[flag] !== undefined);
    if (given.length !== 1) throw new CliError(`give exactly one of ${FILE_FLAGS.map((flag) => `--${flag} FILE`).join(', ')}`);
    const user = await requireUser(f.user);
    const utcOffsetSeconds = f['utc-offset'] === undefined ? 0 : parseUtcOffset(f['utc-offset'])!;
    const now = nowSeconds();
    const kind: ImportKind<unknown> = devicesKind({ user, now, utcOffsetSeconds }) as ImportKind<unknown>;
    const summary = await runImport(kind, { file: f[given[0]!]!, dryRun: f['dry-run'] === true, format: f.format, progress: io?.err ?? process.stderr });
    return { ...summary };
  },
};
