import { Duration, Size, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Charset, NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { tableKeys, tables as tableDefinitions, type TableDefinition, type TableKey } from '../../../shared/db/tables';
import { tableEnvVar } from '../../../shared/db/table-names';
import type { DeployedFunction } from '../function-access';
import { jobTimeoutSeconds } from '../job-timing';
import { SECRETS_KEY_ENV } from '../stack-outputs';
import { PROJECT_ROOT } from '../project-root';
import { FunctionRole } from './function-role';

export const POWERTOOLS_SERVICE_NAME = 'appsource';

const tablesWithIndexes = new Set(tableKeys.filter((key) => ((tableDefinitions[key] as TableDefinition).indexes ?? []).length > 0));

/**
 * ESM bundles still meet CommonJS dependencies that call `require` (parts of the AWS SDK, node-forge);
 * esbuild's ESM output has no `require`, so the bundle creates one.
 */
export const ESM_REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/** Packages left out of every bundle and taken from the Lambda runtime (see `bundling` below). */
export const EXTERNAL_MODULES = ['@aws-sdk/client-kms'] as const;

export interface ServiceFunctionProps {
  fn: DeployedFunction;
  tables: Record<TableKey, Table>;
  secretsKey: IKey;
  /**
   * The log group every function of the stack writes to (Lambda's advanced logging controls). Lambda names each
   * stream `YYYY/MM/DD/<function name>[<version>]<environment id>`, and Powertools adds `function_name` to every
   * line, so one function's logs stay one query away; one group instead of one per function keeps the stack
   * about 50 resources below CloudFormation's limit.
   */
  logGroup: ILogGroup;
  logLevel: string;
  /** CloudWatch namespace of the service's own metrics (the stack's name). */
  metricsNamespace: string;
  /** Variables only this function needs (e.g. the authorizer's default API key). */
  extraEnvironment?: Record<string, string>;
}

/** An authorizer's answer is cached, so it runs rarely; a slow one delays only the first request of a host. */
export const AUTHORIZER_TIMEOUT_SECONDS = 10;

/** Memory (MB) of a function: the ones that decrypt Apple account secrets and sign get twice the CPU. `npm run cost` prices it. */
export function functionMemoryMb(secrets: boolean | undefined): number {
  return secrets ? 1024 : 512;
}

/** A stream batch: up to 10 records, each one delivery of at most 5 s plus a few DynamoDB calls. */
export const STREAM_CONSUMER_TIMEOUT_SECONDS = 90;

function describeFunction(fn: DeployedFunction): string {
  if (fn.kind === 'route') return `${fn.route.methods.join(',')} ${fn.route.path}: ${fn.route.description}`;
  if (fn.kind === 'schedule') return `Every ${fn.job.everyMinutes} min: ${fn.job.description}`;
  if (fn.kind === 'stream') return `Stream of ${fn.consumer.table}: ${fn.consumer.description}`;
  return `Authorizer: ${fn.authorizer.description}`;
}

function timeoutSeconds(fn: DeployedFunction): number {
  // Apple calls and PKCS#12 work need headroom; API Gateway gives up after 29 s anyway.
  if (fn.kind === 'route') return fn.route.timeoutSeconds ?? (fn.access.secrets ? 28 : 10);
  // A scheduled job ends before its next run is due (see job-timing.ts).
  if (fn.kind === 'schedule') return jobTimeoutSeconds(fn.job);
  // Each record is at most one delivery of 5 s, one after the other.
  if (fn.kind === 'stream') return STREAM_CONSUMER_TIMEOUT_SECONDS;
  return AUTHORIZER_TIMEOUT_SECONDS;
}

/**
 * Copies a function's served files (its route's `files`, e.g. the console's built web app) next to its bundle,
 * at the same place relative to the handler, so the handler finds them the same way locally and deployed.
 */
function copyFilesHook(name: string, files: string) {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir: string, outputDir: string) => [
      `test -d "${join(inputDir, 'functions', name, files)}" || { echo "functions/${name}/${files} is missing: bin/app.ts builds it before the synth" >&2; exit 1; }`,
      `mkdir -p "${join(outputDir, files)}"`, `cp -R "${join(inputDir, 'functions', name, files)}/." "${join(outputDir, files)}"`,
    ],
  };
}

/**
 * One Lambda function for one route or scheduled job: its own role (nothing but the functions' log group, its
 * tables and, where it handles Apple secrets, the KMS key), its own log streams in the stack's shared log group,
 * and an environment naming exactly the tables it may touch.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const { fn, tables, secretsKey } = props;
    const { logGroup } = props;
    // A role without AWS managed policies: the basic execution policy would let it write to every log group.
    // Its grants live in the role's own inline policy (see FunctionRole: no separate policy resource).
    const role = new FunctionRole(this, 'Role', `Runs ${fn.name}`);
    logGroup.grantWrite(role);

    const environment: Record<string, string> = {
      POWERTOOLS_SERVICE_NAME,
      POWERTOOLS_LOG_LEVEL: props.logLevel,
      POWERTOOLS_METRICS_NAMESPACE: props.metricsNamespace,
      NODE_OPTIONS: '--enable-source-maps',
      // Declared empty so `sam local --env-vars` can point the functions at a local DynamoDB: SAM only
      // overrides variables the template declares. Empty means "use the region's DynamoDB".
      DYNAMODB_ENDPOINT: '',
      ...props.extraEnvironment,
    };
    for (const key of fn.access.read) {
      tables[key].grantReadData(role);
      environment[tableEnvVar(key)] = tables[key].tableName;
    }
    for (const key of fn.access.write) {
      tables[key].grantReadWriteData(role);
      environment[tableEnvVar(key)] = tables[key].tableName;
    }
    if (fn.access.secrets) {
      role.addToPrincipalPolicy(new PolicyStatement({ actions: ['kms:Decrypt', 'kms:GenerateDataKey'], resources: [secretsKey.keyArn] }));
      environment[SECRETS_KEY_ENV] = secretsKey.keyArn;
    }

    this.function = new NodejsFunction(this, 'Function', {
      description: describeFunction(fn),
      entry: join(PROJECT_ROOT, 'functions', fn.name, 'handler.ts'),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: functionMemoryMb(fn.access.secrets),
      timeout: Duration.seconds(timeoutSeconds(fn)),
      ...(fn.kind === 'schedule' && fn.job.ephemeralStorageMiB ? { ephemeralStorageSize: Size.mebibytes(fn.job.ephemeralStorageMiB) } : {}),
      role,
      logGroup,
      environment,
      awsSdkConnectionReuse: false,
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        platform: 'node',
        mainFields: ['module', 'main'],
        minify: true,
        sourceMap: true,
        sourceMapMode: SourceMapMode.DEFAULT,
        sourcesContent: false,
        banner: ESM_REQUIRE_BANNER,
        // Messages in seven languages: UTF-8 bytes are half the size of esbuild's default \u escapes.
        charset: Charset.UTF8,
        // The SDK is bundled rather than taken from the runtime, so Lambda runs the versions the tests ran. The
        // one exception is KMS, which no test reaches (locally secrets are wrapped by a key file): it is loaded
        // from the runtime's own SDK v3, and only when a deployed function first opens a secret.
        externalModules: [...EXTERNAL_MODULES],
        ...(fn.kind === 'route' && fn.route.files ? { commandHooks: copyFilesHook(fn.name, fn.route.files) } : {}),
      },
    });

    const stack = Stack.of(this);
    for (const key of [...fn.access.read, ...fn.access.write]) {
      if (!tablesWithIndexes.has(key)) continue;
      const logicalId = stack.resolve(stack.getLogicalId(tables[key].node.defaultChild as CfnElement)) as string;
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>/index/*]`,
        reason: `The ${key} table grant includes its global secondary indexes (\`index/*\`), which the function queries; the wildcard covers only that table's indexes.`,
      });
    }
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'nodejs22.x is the runtime the project is built and tested on (Middy 7 needs Node 22); move with the tests, not ahead of them.',
    });
  }
}
