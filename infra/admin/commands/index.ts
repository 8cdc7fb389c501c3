import type { Command } from '../cli-types';
import { deviceCommands } from './device';
import { sourceCommands } from './source';
import { tenantCommands } from './tenant';
import { userCommands } from './user';

/** Every operator command, `<resource> <action>` → implementation. Each resource keeps its own module. */
export const commands: Record<string, Command> = {
  ...tenantCommands,
  ...userCommands,
  ...sourceCommands,
  ...deviceCommands,
};
