import * as z from 'zod/mini';
import { nowMs, nowSeconds } from '../../../shared/clock';
import { clearLockout, inviteUser, setPassword } from '../../../shared/domain/console/console-admin';
import { PASSWORD_LENGTH } from '../../../shared/domain/console/passwords';
import { RuleError } from '../../../shared/domain/errors';
import { CliError, flagInt, flagText, parseFlags, type Command, type CommandIo, type Flags } from '../cli-types';

const password = () => flagText(PASSWORD_LENGTH.max).check(z.refine((s) => [...s].length >= PASSWORD_LENGTH.min, `must be at least ${PASSWORD_LENGTH.min} characters`));

/**
 * `--password-stdin` (as `docker login` has it): the password is read from standard input, so it never lands in
 * the shell's history or the process list. One trailing line break is dropped (what `echo` and a file add).
 */
async function withPasswordFromStdin(flags: Flags, io: CommandIo | undefined): Promise<Flags> {
  if (!('password-stdin' in flags)) return flags;
  const { 'password-stdin': fromStdin, ...rest } = flags;
  if (fromStdin !== true) throw new CliError('--password-stdin: takes no value (the password comes on standard input)');
  if ('password' in rest) throw new CliError('--password-stdin: give the password either on standard input or with --password, not both');
  const input = io?.readInput ? await io.readInput() : '';
  return { ...rest, password: input.replace(/\r?\n$/, '') };
}

/** How a person signs in to the console: the operator sets a password, or sends a one-time invitation link. */
export const consoleLoginCommands: Record<string, Command> = {
  'user set-password': async (flags, io) => {
    const f = parseFlags(await withPasswordFromStdin(flags, io), { user: flagText(), password: password(), login: z.optional(flagText(100)), email: z.optional(flagText(254)) });
    return setPassword({ userId: f.user, password: f.password, login: f.login, email: f.email });
  },
  'user invite': async (flags) => {
    const f = parseFlags(flags, { user: flagText(), login: z.optional(flagText(100)), email: z.optional(flagText(254)), hours: z.optional(flagInt({ min: 1 })), 'base-url': z.optional(flagText(300)) });
    const invite = await inviteUser({ userId: f.user, login: f.login, email: f.email, hours: f.hours }, nowSeconds());
    const base = f['base-url']?.replace(/\/+$/, '') ?? (invite.tenant.domain ? `https://${invite.tenant.domain}` : undefined);
    if (!base) throw new RuleError('host_required', 'the tenant has no domain of its own to put in the link');
    return { user_id: f.user, login: invite.login, url: `${base}/console/#/invite/${invite.token}`, expires_at: invite.expires_at };
  },
  'user unlock': async (flags) => clearLockout(parseFlags(flags, { user: flagText() }).user, nowMs()),
};

/** `--help` of these commands. */
export const consoleLoginHelp: Record<string, string> = {
  'user set-password': [
    'Usage: npm run --silent admin -- user set-password --user <user_id> --password <password> [--login <name>] [--email <address>]',
    '       npm run --silent admin -- user set-password --user <user_id> --password-stdin [--login <name>] [--email <address>] < file',
    '',
    'Sets or resets the password a person signs in to the console with (10–200 characters; stored as a scrypt hash).',
    '--login: the name they sign in with (default: the one they had, else the user\'s name); --email: an e-mail they may',
    'sign in with instead. Both are unique on the tenant. Every console session of the user ends.',
    '--password-stdin: read the password from standard input (one trailing line break dropped), so it stays out of the',
    'shell\'s history and the process list.',
  ].join('\n'),
  'user invite': [
    'Usage: npm run --silent admin -- user invite --user <user_id> [--login <name>] [--email <address>] [--hours 72] [--base-url <https://host>]',
    '',
    'Prints a one-time invitation link (<base>/console/#/invite/<token>) with which the person sets their own password',
    'and is signed in. Valid for --hours (default 72) and once; only its hash is stored. The address is the tenant\'s',
    'own domain, or --base-url (required for a tenant without a domain, e.g. the local runtime).',
  ].join('\n'),
  'user unlock': [
    'Usage: npm run --silent admin -- user unlock --user <user_id>',
    '',
    'Clears the sign-in lockout of the user (5 failed sign-ins in a quarter hour lock it until the quarter hour ends).',
  ].join('\n'),
};
