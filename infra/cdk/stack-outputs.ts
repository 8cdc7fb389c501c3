/**
 * The stack's outputs and the environment variables they stand for. The stack writes them; the operator
 * CLI's `--stack NAME` reads them back into the same variables the functions use.
 */
import { tableKeys, type TableKey } from '../../shared/db/tables';
import { tableEnvVar } from '../../shared/db/table-names';

export const API_URL_OUTPUT = 'ApiUrl';
export const REGION_OUTPUT = 'Region';
/** The functions' shared log group (read it with Logs Insights; see infra/README.md). */
export const FUNCTION_LOGS_OUTPUT = 'FunctionLogGroup';
export const SECRETS_KEY_OUTPUT = 'AccountSecretsKeyArn';
export const USAGE_PLAN_OUTPUT = 'UsagePlanId';

/** Read by the operator CLI's `tenant create`, which adds the tenant's API key to this usage plan. */
export const USAGE_PLAN_ENV = 'USAGE_PLAN_ID';

/** Read by the functions (and the operator CLI) that encrypt or decrypt Apple account secrets. */
export const SECRETS_KEY_ENV = 'ACCOUNT_SECRETS_KEY_ARN';

/** `rateLimits` → `TableRateLimits`. */
export function tableOutputKey(key: TableKey): string {
  return `Table${key.charAt(0).toUpperCase()}${key.slice(1)}`;
}

/** Output key → environment variable, for every output the operator CLI needs. */
export function outputEnvVars(): Record<string, string> {
  const map: Record<string, string> = { [REGION_OUTPUT]: 'AWS_REGION', [SECRETS_KEY_OUTPUT]: SECRETS_KEY_ENV, [USAGE_PLAN_OUTPUT]: USAGE_PLAN_ENV };
  for (const key of tableKeys) map[tableOutputKey(key)] = tableEnvVar(key);
  return map;
}

/**
 * Turns a stack's outputs into environment variables. Every table output must be present: a CLI pointed
 * at a stack from another version must stop rather than write to the local defaults.
 */
export function envFromOutputs(outputs: readonly { OutputKey?: string | undefined; OutputValue?: string | undefined }[]): Record<string, string> {
  const byKey = new Map(outputs.filter((o) => o.OutputKey && o.OutputValue).map((o) => [o.OutputKey!, o.OutputValue!]));
  const env: Record<string, string> = {};
  const missing: string[] = [];
  for (const [output, variable] of Object.entries(outputEnvVars())) {
    const value = byKey.get(output);
    if (value) env[variable] = value;
    else missing.push(output);
  }
  if (missing.length) throw new Error(`the stack has no output(s) ${missing.join(', ')}; deploy this version of the stack first`);
  return env;
}
