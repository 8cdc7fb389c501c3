/**
 * A table's physical name from its key: the deployed name the stack puts in the environment, else the local
 * prefix and suffix. Apart from the table list (tables.ts) because every function needs the names and none
 * needs the definitions (keys, indexes, streams) that the stack and the local bootstrap build from.
 */
import type { TableKey } from './tables';
import { config, deployedTableName } from '../config';

/** `rateLimits` → `RATE_LIMITS`: the environment variable that names a deployed table. */
export function tableEnvVar(key: TableKey): string {
  return `TABLE_${key.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}`;
}

/** `rateLimits` → `rate-limits`: the suffix of the physical table name when running locally. */
export function tableSuffix(key: TableKey): string {
  return key.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}

// Every DynamoDB call asks for its table's name: the two regex-derived spellings are worked out once per key.
// The environment comes from config(), which sees a changed TABLE_PREFIX (tests and the local runtime switch it).
const derivedNames: Partial<Record<TableKey, { envVar: string; suffix: string }>> = {};

/**
 * Physical table name: the deployed name from `TABLE_<KEY>` (set by the CDK stack), otherwise
 * `<TABLE_PREFIX><suffix>` for the local runtime and tests.
 */
export function tableName(key: TableKey): string {
  const names = (derivedNames[key] ??= { envVar: tableEnvVar(key), suffix: tableSuffix(key) });
  return deployedTableName(names.envVar) ?? `${config().tablePrefix}${names.suffix}`;
}
