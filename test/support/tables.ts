import { randomBytes } from 'node:crypto';
import { createTables } from '../../shared/db/create-tables';

/**
 * Gives the calling test file its own set of tables in the run's DynamoDB Local (started by global setup),
 * so files never see each other's data. Call once at module level or in beforeAll.
 */
export async function useIsolatedTables(): Promise<string> {
  const prefix = `t${randomBytes(4).toString('hex')}-`;
  process.env.TABLE_PREFIX = prefix;
  await createTables();
  return prefix;
}
