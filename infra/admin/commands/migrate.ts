import { backfillLookups } from '../../../shared/db/repositories/lookup-backfill';
import { parseFlags, type Command } from '../cli-types';

export const migrateCommands: Record<string, Command> = {
  /** After deploying the keyed token and host lookups over existing data: `{"tokens":N,"hosts":M}` written. */
  'migrate lookups': async (flags) => {
    parseFlags(flags, {});
    return { ...(await backfillLookups()) };
  },
};
