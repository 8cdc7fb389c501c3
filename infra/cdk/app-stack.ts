import { Aws, CfnOutput, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import { MethodLoggingLevel } from 'aws-cdk-lib/aws-apigateway';
import { Key } from 'aws-cdk-lib/aws-kms';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import { tableKeys } from '../../shared/db/tables';
import { routes, scheduledJobs, type RouteDefinition, type ScheduledJobDefinition } from '../../shared/routes';
import { DataTables } from './constructs/data-tables';
import { Monitoring } from './constructs/monitoring';
import { OpenApiAsset } from './constructs/openapi-asset';
import { ServiceApi, STAGE_NAME } from './constructs/service-api';
import { FEED_CACHE } from './feed-cache';
import { DOWNLOAD_COUNTER_FUNCTION, DownloadCounting } from './download-counts';
import { POWERTOOLS_SERVICE_NAME, ServiceFunction } from './constructs/service-function';
import { Schedules } from './constructs/schedules';
import { StreamConsumers } from './constructs/stream-consumers';
import { deployedFunctions, type DeployedFunction } from './function-access';
import type { StackConfig } from './stack-config';
import { API_URL_OUTPUT, FUNCTION_LOGS_OUTPUT, REGION_OUTPUT, SECRETS_KEY_OUTPUT, tableOutputKey, USAGE_PLAN_OUTPUT } from './stack-outputs';
import { DEFAULT_API_KEY_ENV } from '../../shared/domain/tenants/api-key';

export interface AppSourceStackProps extends StackProps {
  config: StackConfig;
  /** The route table and scheduled jobs to deploy; the shared ones unless a test narrows them. */
  routes?: readonly RouteDefinition[];
  scheduledJobs?: readonly ScheduledJobDefinition[];
  /** The generated OpenAPI document, published as a stack asset (bin/app.ts always passes it). */
  openApiDocument?: object;
}

/** The API has one authorizer (the API-key one); an entry list with none or several is a wiring mistake. */
function onlyAuthorizer(functions: readonly { fn: DeployedFunction; handler: NodejsFunction }[]) {
  const found = functions.flatMap(({ fn, handler }) => (fn.kind === 'authorizer' ? [{ definition: fn.authorizer, handler }] : []));
  if (found.length !== 1) throw new Error(`The API needs exactly one authorizer entry, found ${found.length}`);
  return found[0]!;
}

/** The whole service: tables, one function per route and per scheduled job, the REST API, the schedules. */
export class AppSourceStack extends Stack {
  readonly tables: DataTables;
  readonly secretsKey: Key;
  readonly functions: { fn: DeployedFunction; handler: NodejsFunction }[];
  readonly api: ServiceApi;
  readonly monitoring: Monitoring;
  readonly streamConsumers: StreamConsumers;
  /** The one log group of every function (see ServiceFunction's `logGroup`). */
  readonly functionLogs: LogGroup;

  constructor(scope: Construct, id: string, props: AppSourceStackProps) {
    super(scope, id, props);
    const { config } = props;
    const data = new DataTables(this, 'Tables', { removalPolicy: config.removalPolicy });
    const secretsKey = new Key(this, 'AccountSecretsKey', {
      description: 'Encrypts Apple account secrets (.p8 keys, .p12 passwords)',
      enableKeyRotation: true,
      removalPolicy: config.removalPolicy,
    });

    // One log group for all functions: each one's streams carry its name (see ServiceFunction's logGroup).
    const functionLogs = new LogGroup(this, 'FunctionLogs', { retention: config.logRetention, removalPolicy: config.removalPolicy });

    // Unique per stack (the stack id's UUID) and known before deploy, so the authorizer can name it.
    const defaultApiKey = Fn.join('-', ['default', Fn.select(2, Fn.split('/', Aws.STACK_ID))]);
    const functions = deployedFunctions(props.routes ?? routes, props.scheduledJobs ?? scheduledJobs).map((fn) => ({
      fn,
      handler: new ServiceFunction(this, fn.name, {
        fn,
        tables: data.byKey,
        secretsKey,
        logGroup: functionLogs,
        logLevel: config.logLevel,
        metricsNamespace: config.stackName,
        ...(fn.kind === 'authorizer' ? { extraEnvironment: { [DEFAULT_API_KEY_ENV]: defaultApiKey } } : {}),
      }).function,
    }));

    this.tables = data;
    this.functionLogs = functionLogs;
    this.secretsKey = secretsKey;
    this.functions = functions;
    const api = new ServiceApi(this, 'Http', {
      routes: functions.flatMap(({ fn, handler }) => (fn.kind === 'route' ? [{ route: fn.route, handler }] : [])),
      removalPolicy: config.removalPolicy,
      logRetention: config.logRetention,
      createAccountRole: config.apiGatewayAccountRole === 'create',
      logLevel: MethodLoggingLevel[config.apiLogLevel],
      apiKeyAuthorizer: onlyAuthorizer(functions),
      defaultApiKey,
      ...(config.feedCacheSeconds > 0 ? { cache: { method: FEED_CACHE, ttlSeconds: config.feedCacheSeconds } } : {}),
    });
    this.api = api;
    const schedules = new Schedules(this, 'Schedules', {
      jobs: functions.flatMap(({ fn, handler }) => (fn.kind === 'schedule' ? [{ job: fn.job, handler }] : [])),
      removalPolicy: config.removalPolicy,
    });
    // The gate's download lines, from the functions' log group to the function that sums them (if deployed).
    const counter = functions.find(({ fn }) => fn.name === DOWNLOAD_COUNTER_FUNCTION);
    if (counter) new DownloadCounting(this, 'DownloadCounts', { logGroup: functionLogs, counter: counter.handler });
    this.streamConsumers = new StreamConsumers(this, 'Streams', {
      consumers: functions.flatMap(({ fn, handler }) => (fn.kind === 'stream' ? [{ consumer: fn.consumer, handler }] : [])),
      tables: data.byKey,
      removalPolicy: config.removalPolicy,
    });
    // Last, so every alarm above exists when it wires them to the topic.
    this.monitoring = new Monitoring(this, 'Monitoring', {
      namespace: config.stackName,
      serviceName: POWERTOOLS_SERVICE_NAME,
      accessLogs: api.accessLogs,
      functionLogs,
      apiName: api.api.restApiName,
      stageName: STAGE_NAME,
      routes: functions.flatMap(({ fn }) => (fn.kind === 'route' ? [fn.route] : [])),
      jobs: functions.flatMap(({ fn }) => (fn.kind === 'schedule' ? [fn.job] : [])),
      functions: functions.map(({ fn, handler }) => ({ name: fn.name, handler })),
      failedRuns: schedules.failedRuns,
      freeSlotsThreshold: config.freeSlotsAlarmThreshold,
      alarmEmail: config.alarmEmail,
    });

    if (props.openApiDocument) new OpenApiAsset(this, 'OpenApi', { document: props.openApiDocument });

    new CfnOutput(this, API_URL_OUTPUT, { value: api.api.url, description: 'Base URL of the API (the contract’s paths go after it)' });
    new CfnOutput(this, FUNCTION_LOGS_OUTPUT, { value: functionLogs.logGroupName, description: 'Log group of every function; one function’s streams start YYYY/MM/DD/<function name>' });
    new CfnOutput(this, REGION_OUTPUT, { value: this.region, description: 'Region of the tables (operator CLI)' });
    new CfnOutput(this, USAGE_PLAN_OUTPUT, { value: api.usagePlan.usagePlanId, description: 'Usage plan the tenants’ API keys belong to (operator CLI: tenant create)' });
    new CfnOutput(this, SECRETS_KEY_OUTPUT, { value: secretsKey.keyArn, description: 'KMS key for Apple account secrets (operator CLI)' });
    for (const key of tableKeys) {
      new CfnOutput(this, tableOutputKey(key), { value: data.byKey[key].tableName, description: `DynamoDB table "${key}" (operator CLI)` });
    }
  }
}
