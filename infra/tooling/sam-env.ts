/**
 * The `--env-vars` file for `sam local start-api`: points every function of the synthesized template at a
 * local DynamoDB and at the table names the local runtime creates (`npm start`, TABLE_PREFIX).
 */
import { tableKeys } from '../../shared/db/tables';
import { tableEnvVar, tableSuffix } from '../../shared/db/table-names';
import { DEFAULT_API_KEY_ENV } from '../../shared/domain/tenants/api-key';
import { SECRETS_KEY_ENV } from '../cdk/stack-outputs';
import { templateFunctions, type CfnTemplate } from './cloud-assembly';

export interface SamEnvOptions {
  /** DynamoDB as seen from inside the function containers. */
  endpoint: string;
  tablePrefix: string;
  logLevel: string;
}

export const DEFAULT_SAM_ENV: SamEnvOptions = {
  // Docker Desktop's name for the host; on Linux, sam needs `--add-host host.docker.internal:host-gateway`.
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
    // SAM does not emulate usage plans: any key will do for the authorizer.
    [DEFAULT_API_KEY_ENV]: 'local-default-tenant-key',
  };
  for (const key of tableKeys) local[tableEnvVar(key)] = `${options.tablePrefix}${tableSuffix(key)}`;
  const result: Record<string, Record<string, string>> = {};
  for (const fn of templateFunctions(template)) {
    result[fn.logicalId] = Object.fromEntries(fn.environment.filter((name) => Object.hasOwn(local, name)).map((name) => [name, local[name]!]));
  }
  return result;
}
