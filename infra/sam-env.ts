/**
 * The `--env-vars` file for `sam local start-api`: points every function of the synthesized template at a
 * local DynamoDB and at the table names the local runtime creates (`npm start`, TABLE_PREFIX).
 */
import { tableEnvVar, tableKeys, tableSuffix } from '../shared/db/tables';
import { SECRETS_KEY_ENV } from './stack-outputs';
import { templateFunctions, type CfnTemplate } from './cloud-assembly';

export interface SamEnvOptions {
  /** DynamoDB as seen from inside the function containers. */
  endpoint: string;
  tablePrefix: string;
  logLevel: string;
}

export const DEFAULT_SAM_ENV: SamEnvOptions = {
  // Docker Desktop's name for the host; on Linux run sam with `--docker-network host` and 127.0.0.1.
  endpoint: 'http://host.docker.internal:8000',
  tablePrefix: 'appsrc-',
  logLevel: 'DEBUG',
};

/**
 * One entry per function logical id. SAM only overrides variables the template declares, so each entry
 * sets exactly the variables its function declares.
 */
export function samEnvVars(template: CfnTemplate, options: SamEnvOptions = DEFAULT_SAM_ENV): Record<string, Record<string, string>> {
  const local: Record<string, string> = {
    DYNAMODB_ENDPOINT: options.endpoint,
    POWERTOOLS_LOG_LEVEL: options.logLevel,
    // No KMS locally: an empty key ARN means "not configured".
    [SECRETS_KEY_ENV]: '',
  };
  for (const key of tableKeys) local[tableEnvVar(key)] = `${options.tablePrefix}${tableSuffix(key)}`;
  const result: Record<string, Record<string, string>> = {};
  for (const fn of templateFunctions(template)) {
    result[fn.logicalId] = Object.fromEntries(fn.environment.filter((name) => name in local).map((name) => [name, local[name]!]));
  }
  return result;
}
