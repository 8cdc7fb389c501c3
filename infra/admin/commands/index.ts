import type { Command } from '../cli-types';
import { accountCommands } from './account';
import { codeCommands } from './code';
import { deviceCommands } from './device';
import { migrateCommands } from './migrate';
import { planCommands } from './plan';
import { importCommands } from './import';
import { sourceCommands } from './source';
import { tenantCommands } from './tenant';
import { tenantSettingsCommands } from './tenant-settings';
import { userCommands } from './user';
import { ledgerCommands } from './ledger';
import { udidCommands } from './udid';
import { consoleLoginCommands, consoleLoginHelp } from './console-login';

/** Every operator command, `<resource> <action>` → implementation. Each resource keeps its own module. */
export const commands: Record<string, Command> = {
  ...tenantCommands,
  ...tenantSettingsCommands,
  ...accountCommands,
  ...codeCommands,
  ...userCommands,
  ...sourceCommands,
  ...deviceCommands,
  ...migrateCommands,
  ...importCommands,
  ...ledgerCommands,
  ...planCommands,
  ...udidCommands,
  ...consoleLoginCommands,
};

/** Commands with a help text of their own (`<command> --help`); the others answer the list of commands. */
export const commandHelp: Record<string, string> = { ...consoleLoginHelp };
