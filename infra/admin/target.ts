import { tableKeys } from '../../shared/db/tables';
import { tableEnvVar } from '../../shared/db/table-names';

/**
 * Points the CLI at the product's tables: the tables named by `TABLE_*` variables (a deployed stack), or
 * the local runtime's DynamoDB (DYNAMODB_ENDPOINT, default http://127.0.0.1:$DYNAMODB_LOCAL_PORT).
 */
export async function configureAdminTarget(options: { stack?: string | undefined; region?: string | undefined }): Promise<void> {
  if (options.region) process.env.AWS_REGION = options.region;
  if (options.stack) {
    const { loadStackTables } = await import('./stack-target');
    await loadStackTables(options.stack);
    return;
  }
  const deployed = tableKeys.some((key) => process.env[tableEnvVar(key)]);
  if (!deployed && !process.env.DYNAMODB_ENDPOINT) {
    process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${process.env.DYNAMODB_LOCAL_PORT ?? '8000'}`;
  }
}
