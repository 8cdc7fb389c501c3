import * as z from 'zod/mini';
import { ServiceError } from '../../shared/service-error';

// Operators read these messages: zod's mini form ships without them until a locale is configured.
z.config(z.locales.en());

export type Flags = Record<string, string | true>;

/** A failure the operator caused or can fix: printed on stderr without a stack. */
export class CliError extends ServiceError<'usage', 'cli_usage'> {
  override readonly name = 'CliError';

  constructor(message: string) {
    super('usage', 'cli_usage', message);
  }
}

/** Where a command may report progress: stderr (with whether it is a terminal), never stdout. */
export interface CommandIo {
  err: { write(text: string): unknown; isTTY?: boolean | undefined; columns?: number | undefined };
  /** The whole of standard input, read only by a command that asks for it (a secret kept out of the shell's history). */
  readInput?: () => Promise<string>;
}

/** A command's answer printed as this text instead of JSON (e.g. CSV). */
export const RAW_TEXT = Symbol('raw text');
/** A command that succeeded but found something wrong (a reconciliation's differences) exits with this status. */
export const EXIT_STATUS = Symbol('exit status');

/** `io` is given by `runAdmin`; a command called directly (tests) reports to the process's stderr. */
export type Command = (flags: Flags, io?: CommandIo) => Promise<Record<string, unknown>>;

/** Validates flags with zod; a bad or missing flag names itself in the error. */
export function parseFlags<S extends z.core.$ZodShape>(flags: Flags, shape: S): z.infer<z.ZodMiniObject<S, z.core.$strict>> {
  const parsed = z.strictObject(shape).safeParse(flags);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = issue.path[0] === undefined ? '' : `--${String(issue.path[0])}`;
    if (issue.code === 'unrecognized_keys') return `unknown flag(s): ${issue.keys.map((k) => `--${k}`).join(', ')}`;
    return `${name}: ${issue.message}`;
  });
  throw new CliError(problems.join('; '));
}

/** A flag given with a value (`--name Foo`); a bare `--name` is refused. */
export const flagText = (max = 200) => z.string({ error: 'requires a value' }).check(z.trim(), z.minLength(1, 'requires a value'), z.maxLength(max));

/** A whole number from a flag, e.g. `--balance 1000`. */
export const flagInt = ({ min = 0 } = {}) =>
  z.pipe(
    z.pipe(z.string({ error: 'requires a whole number' }).check(z.regex(/^-?\d+$/, 'must be a whole number')), z.transform(Number)),
    z.number().check(z.refine((n) => Number.isSafeInteger(n) && n >= min, `must be a whole number ≥ ${min}`)),
  );
