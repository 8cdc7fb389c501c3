import { RuleError, type RuleReason } from '../../shared/domain/errors';
import '../../shared/stores/all';
import { commandHelp, commands } from './commands';
import { CliError, EXIT_STATUS, RAW_TEXT, type Flags } from './cli-types';
import { configureAdminTarget } from './target';
import { ownRecord, ownValue } from '../../shared/own-record';

export function parseArgv(argv: string[]): { name: string; flags: Flags } {
  const words: string[] = [];
  // No prototype: `--__proto__ x` is a flag like any other (refused as unknown), not a silent no-op.
  const flags: Flags = ownRecord();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const [key, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (!key) throw new CliError(`Malformed flag "${arg}"`);
      if (inline !== undefined) flags[key] = inline;
      else if (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) flags[key] = argv[++i]!;
      else flags[key] = true;
    } else {
      words.push(arg);
    }
  }
  return { name: words.join(' '), flags };
}

/** Refusals an operator fixes with a flag: which flag, and whether to pass or drop it (otherwise: correct its value). */
const FLAG_HINTS: Partial<Record<RuleReason, { flag: string; fix?: 'pass' | 'drop' }>> = {
  lang_unsupported: { flag: 'lang' },
  udid_invalid: { flag: 'udid' },
  kid_invalid: { flag: 'kid' },
  warranty_invalid: { flag: 'warranty' },
  private_account_without_user: { flag: 'user', fix: 'pass' },
  public_account_with_user: { flag: 'user', fix: 'drop' },
  login_required: { flag: 'login', fix: 'pass' },
  email_invalid: { flag: 'email' },
  host_required: { flag: 'base-url', fix: 'pass' },
};

/** The one place an error becomes the operator's message: the service's own words, with the flag that fixes it. */
function cliMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const hint = error instanceof RuleError ? FLAG_HINTS[error.reason] : undefined;
  if (!hint) return error.message;
  return hint.fix ? `${error.message}: ${hint.fix} --${hint.flag}` : `--${hint.flag}: ${error.message}`;
}

function usage(): string {
  return ['Usage: npm run --silent admin -- <resource> <action> [--flag value]', '', 'Commands:', ...Object.keys(commands).map((c) => `  ${c}`)].join('\n');
}

/** Runs one operator command: JSON on stdout, a message on stderr and a non-zero exit otherwise. */
const writeStderr = (s: string) => void process.stderr.write(s);

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

export async function runAdmin(
  argv: string[],
  out: (s: string) => void = (s) => process.stdout.write(s),
  err: (s: string) => void = writeStderr,
  readInput: () => Promise<string> = readStdin,
): Promise<number> {
  try {
    const { name, flags } = parseArgv(argv);
    if (!name || name === 'help' || flags.help) {
      const help = name ? ownValue(commandHelp, name) : undefined;
      err(`${help ?? usage()}\n`);
      return name ? 0 : 2;
    }
    const command = ownValue(commands, name);
    if (!command) {
      err(`Unknown command "${name}".\n${usage()}\n`);
      return 2;
    }
    const { stack, region, ...rest } = flags;
    await configureAdminTarget({ stack: typeof stack === 'string' ? stack : undefined, region: typeof region === 'string' ? region : undefined });
    // Progress bars only where a person watches: the real stderr, when it is a terminal.
    const io = { err: { write: err, isTTY: err === writeStderr && process.stderr.isTTY, columns: process.stderr.columns }, readInput };
    const result = await command(rest, io);
    const marks = result as Record<symbol, unknown>;
    const text = marks[RAW_TEXT];
    out(typeof text === 'string' ? text : `${JSON.stringify(result)}\n`);
    const status = marks[EXIT_STATUS];
    return typeof status === 'number' ? status : 0;
  } catch (error) {
    err(`Error: ${cliMessage(error)}\n`);
    return 1;
  }
}
