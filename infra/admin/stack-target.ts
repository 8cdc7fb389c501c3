import { CliError } from './cli-types';

/** Reads the table names from a deployed stack's outputs (filled in by the production stack's issue). */
export async function loadStackTables(stack: string): Promise<void> {
  throw new CliError(`--stack ${stack}: targeting a deployed stack is not available yet; set the TABLE_* variables instead`);
}
