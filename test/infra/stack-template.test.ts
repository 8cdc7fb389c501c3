/**
 * The synthesized CloudFormation template (bundling off): every route and scheduled job of the shared
 * tables is wired to its own function with exactly the access it needs, and nothing else is deployed.
 * The default stack is the shared synth (`test/support/shared-synth.ts`); the flagged forms and the stacks
 * that must fail are synthesized here.
 */
import { App, CfnResource, Duration, Stack, Stage } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Match } from 'aws-cdk-lib/assertions';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { authorizers, routes, scheduledJobs, sourceFeedRoute, streamConsumers, type AuthorizerDefinition, type RouteDefinition, type ScheduledJobDefinition, type StreamConsumerDefinition } from '../../shared/routes';
import { tableKeys, tables, type TableDefinition, type TableKey } from '../../shared/db/tables';
import { tableEnvVar } from '../../shared/db/table-names';
import { stageThrottle, tenantThrottle } from '../../infra/cdk/throttles';
import { metricNames } from '../../shared/observability/metric-names';
import { PATHS_PER_5XX_ALARM } from '../../infra/cdk/constructs/monitoring';
import { resourcePaths } from '../../infra/cdk/constructs/service-api';
import { estimatedPolicyChars, FunctionRole, FUNCTION_POLICY_NAME, ROLE_INLINE_POLICY_LIMIT } from '../../infra/cdk/constructs/function-role';
import { sharedSynth, type SharedSynth } from '../support/shared-synth';
import { DOWNLOAD_COUNTER_FUNCTION, DOWNLOAD_LINES_PATTERN } from '../../infra/cdk/download-counts';
import { DOWNLOAD_FIELD } from '../../shared/observability/download-log';
import { functionGrants, referencedId, synth, type Synthesized } from '../support/synth';

const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'];

/** The least-privilege rule, restated from the route table's documentation rather than imported. */
type Entry = RouteDefinition | ScheduledJobDefinition | AuthorizerDefinition | StreamConsumerDefinition;
const isRoute = (entry: Entry): entry is RouteDefinition => 'path' in entry;
const isJob = (entry: Entry): entry is ScheduledJobDefinition => 'everyMinutes' in entry;
const isConsumer = (entry: Entry): entry is StreamConsumerDefinition => 'batchSize' in entry;

function expectedAccess(entry: Entry): { read: Set<TableKey>; write: Set<TableKey> } {
  const write = new Set<TableKey>(entry.data.write ?? []);
  const read = new Set<TableKey>(entry.data.read ?? []);
  if (isRoute(entry)) {
    read.add('tenants');
    read.add('tenantHosts');
    if (entry.auth === 'bearer' || entry.auth === 'token') read.add('tokens');
    // A console session instead of a token: read, and its idle end moved forward.
    if (entry.auth === 'bearer' || entry.auth === 'token') write.add('consoleAuth');
    if (entry.auth === 'session') read.add('udidCapture');
    if (entry.rateLimit !== null || (entry.ipLimits?.length ?? 0) > 0) write.add('rateLimits');
  } else if (isJob(entry)) {
    // Every scheduled job holds its lease while it runs.
    write.add('leases');
  }
  for (const key of write) read.delete(key);
  return { read, write };
}

const entries: Entry[] = [...routes, ...scheduledJobs, ...authorizers, ...streamConsumers];

/** What the tests read of a synth: the shared default stack's, or one synthesized here. */
type Read = Pick<Synthesized, 'json' | 'template' | 'functionId' | 'tableId' | 'tableByLogicalId'>;

/** Full resource path of an API Gateway resource, rebuilt from PathPart/ParentId. */
function resourcePath(s: Pick<Read, 'json'>, resourceId: unknown): string {
  const id = referencedId(resourceId);
  if (!id || s.json.Resources[id]?.Type !== 'AWS::ApiGateway::Resource') return '';
  const props = s.json.Resources[id]!.Properties!;
  return `${resourcePath(s, props.ParentId)}/${String(props.PathPart)}`;
}

let s: SharedSynth;
beforeAll(async () => {
  s = await sharedSynth();
});

/**
 * The stack with several non-default flags at once, each read by its own test below. The flags touch separate
 * parts of the stack (the alarm topic's subscription, the methods' log level, deletion policies, one alarm's
 * threshold, the metrics namespace, the feed cache's TTL), so one synth answers each test as a synth of its flag
 * alone would, at a fraction of the time (a synth is several seconds). Alarm e-mail on: also the stack's largest
 * form.
 */
const FLAGGED = { alarmEmail: 'ops@example.com', apiLogLevel: 'INFO', removalPolicy: 'destroy', freeSlotsAlarmThreshold: '3', stackName: 'AppSourceTest', feedCacheSeconds: 300 };
let flaggedSynth: Synthesized | undefined;
const flagged = () => (flaggedSynth ??= synth({ context: FLAGGED }));
/**
 * Likewise the other log level with the account role left alone and no feed cache (the tests of the log level
 * and of the cache read the stage's method settings each for their own field).
 */
let quietSynth: Synthesized | undefined;
const quiet = () => (quietSynth ??= synth({ context: { apiLogLevel: 'OFF', apiGatewayAccountRole: 'existing', feedCacheSeconds: 0 } }));

/** The functions' one log group: the one the first function names (each test below checks the others agree). */
const functionLogsId = () => referencedId((s.json.Resources[s.functionId(entries[0]!.function)]!.Properties!.LoggingConfig as { LogGroup: unknown }).LogGroup)!;
const accessLogsId = () => referencedId(Object.values(s.template.findResources('AWS::ApiGateway::Stage'))[0]!.Properties.AccessLogSetting.DestinationArn)!;

const projectFunctions = () => Object.entries(s.json.Resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');

describe('functions', () => {
  test('one function per route, per scheduled job and per authorizer, and no other function', () => {
    expect(projectFunctions()).toHaveLength(entries.length);
    for (const entry of entries) expect(s.json.Resources[s.functionId(entry.function)]?.Type).toBe('AWS::Lambda::Function');
  });

  test.each(entries.map((e) => [e.function, e] as const))('%s: nodejs22.x on arm64, ESM bundle entry, the functions\' log group with retention', (name) => {
    const props = s.json.Resources[s.functionId(name)]!.Properties!;
    expect(props).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler' });
    const logGroupId = referencedId((props.LoggingConfig as { LogGroup: unknown }).LogGroup)!;
    expect(logGroupId).toBe(functionLogsId());
    expect(s.json.Resources[logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 }, DeletionPolicy: 'Retain' });
  });

  test('all functions write to one log group, named in an output; the stack has no other log group but the access logs', () => {
    // One group instead of one per function (Lambda names each function's streams after it): ~50 fewer resources.
    const groups = Object.keys(s.template.findResources('AWS::Logs::LogGroup'));
    expect(groups.sort()).toEqual([functionLogsId(), accessLogsId()].sort());
    expect((s.json.Outputs?.FunctionLogGroup as { Value: unknown } | undefined)?.Value).toEqual({ Ref: functionLogsId() });
  });

  test('the dashboard reads the latest errors of every function from the shared log group', () => {
    const [dashboard] = Object.values(s.template.findResources('AWS::CloudWatch::Dashboard'));
    const parts = (dashboard!.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
    const source = parts.findIndex((part) => typeof part === 'string' && part.endsWith("SOURCE '"));
    expect(parts[source + 1]).toEqual({ Ref: functionLogsId() });
    expect(parts[source + 2]).toMatch(/^' \| fields @timestamp, coalesce\(function_name, @logStream\)/);
  });

  test.each((routes as readonly RouteDefinition[]).map((r) => [r.function, r] as const))('%s: timeout from its entry (timeoutSeconds, else 28 s with secrets, 10 s)', (name, route) => {
    expect(s.json.Resources[s.functionId(name)]!.Properties!.Timeout).toBe(route.timeoutSeconds ?? (route.secrets ? 28 : 10));
  });

  test.each(entries.map((e) => [e.function, e] as const))('%s: environment names exactly its tables, Powertools and source maps', (name, entry) => {
    const { read, write } = expectedAccess(entry);
    const variables = (s.json.Resources[s.functionId(name)]!.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
    const expected: Record<string, unknown> = {
      POWERTOOLS_SERVICE_NAME: 'appsource',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      POWERTOOLS_METRICS_NAMESPACE: 'AppSource',
      NODE_OPTIONS: '--enable-source-maps',
      DYNAMODB_ENDPOINT: '',
    };
    for (const key of [...read, ...write]) expected[tableEnvVar(key)] = { Ref: s.tableId(key) };
    if (!isRoute(entry) && !isJob(entry) && !isConsumer(entry)) {
      expected.DEFAULT_TENANT_API_KEY = { 'Fn::Join': ['-', ['default', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }]] };
    }
    if ('secrets' in entry && entry.secrets) expected.ACCOUNT_SECRETS_KEY_ARN = { 'Fn::GetAtt': [Object.keys(s.template.findResources('AWS::KMS::Key'))[0], 'Arn'] };
    expect(variables).toEqual(expected);
  });

  test.each(entries.map((e) => [e.function, e] as const))('%s: IAM grants exactly its tables (reads read-only), its log group, and KMS only for secrets', (name, entry) => {
    const { read, write } = expectedAccess(entry);
    const fnId = s.functionId(name);
    const roleId = referencedId(s.json.Resources[fnId]!.Properties!.Role)!;
    const role = s.json.Resources[roleId]!.Properties!;
    // No AWS managed policies (the basic execution policy would open every log group), and every grant in the
    // role's one inline policy: no policy resource of its own (see infra/cdk/constructs/function-role.ts).
    expect(role.ManagedPolicyArns).toBeUndefined();
    expect((role.Policies as { PolicyName: string }[]).map((p) => p.PolicyName)).toEqual([FUNCTION_POLICY_NAME]);
    const attached = Object.values(s.json.Resources).filter((r) => ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy'].includes(r.Type) && ((r.Properties!.Roles ?? []) as unknown[]).map(referencedId).includes(roleId));
    expect(attached).toEqual([]);

    const grants = functionGrants(s.json, fnId);
    const readable = new Set<TableKey>();
    const writable = new Set<TableKey>();
    let kms = false;
    let logs = false;
    let failureQueue = false;
    for (const grant of grants) {
      for (const resource of grant.resources) {
        const table = resource.id ? s.tableByLogicalId.get(resource.id) : undefined;
        if (table) {
          expect(['', '/index/*']).toContain(resource.suffix);
          // Index grants only where the table list declares indexes.
          if (resource.suffix) expect(((tables[table] as TableDefinition).indexes ?? []).length).toBeGreaterThan(0);
          if (grant.actions.some((a) => READ_ACTIONS.includes(a))) readable.add(table);
          if (grant.actions.some((a) => WRITE_ACTIONS.includes(a))) writable.add(table);
          expect(grant.actions.every((a) => a.startsWith('dynamodb:'))).toBe(true);
        } else if (resource.id && s.json.Resources[resource.id]?.Type === 'AWS::KMS::Key') {
          expect(grant.actions.sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey']);
          kms = true;
        } else if (isConsumer(entry) && !resource.id && grant.actions.join() === 'dynamodb:ListStreams') {
          // The one action without resource-level permissions, which the stream grant needs.
        } else if (resource.id && s.json.Resources[resource.id]?.Type === 'AWS::SQS::Queue') {
          // The on-failure destination of a scheduled job or stream consumer: it may only send.
          expect(grant.actions.filter((a) => !['sqs:GetQueueAttributes', 'sqs:GetQueueUrl'].includes(a))).toEqual(['sqs:SendMessage']);
          failureQueue = true;
        } else if (resource.id === referencedId((s.json.Resources[fnId]!.Properties!.LoggingConfig as { LogGroup: unknown }).LogGroup)) {
          expect(grant.actions.sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
          logs = true;
        } else {
          throw new Error(`${name} is granted ${grant.actions.join(',')} on an unexpected resource ${JSON.stringify(resource)}`);
        }
      }
    }
    expect([...writable].sort()).toEqual([...write].sort());
    expect([...readable].sort()).toEqual([...new Set([...read, ...write])].sort());
    expect(kms).toBe('secrets' in entry && entry.secrets === true);
    expect(logs).toBe(true);
    expect(failureQueue).toBe(isJob(entry) || isConsumer(entry));
  });

  test('a route whose handler file does not exist stops the synth', () => {
    const ghost: RouteDefinition = { ...routes[0], function: 'no-such-function', path: '/api/ghost' };
    expect(() => synth({ routes: [...routes, ghost] })).toThrow(/functions\/no-such-function\/handler\.ts/);
  });

  test("CloudFormation's resource schemas are checked on every synth: a schema violation stops it", () => {
    // The default stack passes them (the shared synth would have thrown; cdk-nag.test.ts reads CDK's report).
    // Shown on a small stack that synthesizes cleanly first: one route is enough for a function to break.
    const small = synth({ routes: routes.slice(0, 1) });
    const app = Stage.of(small.stack)!;
    (small.stack.functions[0]!.handler.node.defaultChild as CfnResource).addPropertyOverride('MemorySize', 'lots');
    // `force`: synthesize again rather than hand back the first assembly.
    expect(() => app.synth({ force: true })).toThrow(/ERROR MemorySize: 'lots' is not of type 'integer' \(CloudFormation Validate\)/);
  });

  test('two entries naming one function folder are refused (they would share a role and its grants)', () => {
    const twin: RouteDefinition = { ...routes[0], path: '/api/twin' };
    expect(() => synth({ routes: [...routes, twin] })).toThrow(`Function "${routes[0].function}" appears twice`);
  });

  test('every role\'s inline policy stays within IAM\'s limit, each reference counted at a deployed ARN\'s length', () => {
    for (const entry of entries) {
      const role = s.json.Resources[referencedId(s.json.Resources[s.functionId(entry.function)]!.Properties!.Role)!]!.Properties!;
      expect(estimatedPolicyChars((role.Policies as { PolicyDocument: unknown }[])[0]!.PolicyDocument)).toBeLessThanOrEqual(ROLE_INLINE_POLICY_LIMIT);
    }
  });

  test('a role whose grants could pass IAM\'s inline limit stops the synth', () => {
    const app = new App();
    const stack = new Stack(app, 'Crowded');
    const role = new FunctionRole(stack, 'Role', 'Runs a function with too many grants');
    for (let i = 0; i < 70; i++) {
      const queue = new CfnResource(stack, `Queue${i}`, { type: 'AWS::SQS::Queue' });
      // Each with its own actions, so minimizing cannot merge them.
      role.addToPrincipalPolicy(new PolicyStatement({ actions: [`sqs:Action${i}`], resources: [queue.getAtt('Arn').toString()] }));
    }
    expect(() => app.synth()).toThrow(/past IAM's 10240 per role/);
  });

  test('read-only functions get no write action on any table', () => {
    const readOnly = entries.filter((e) => expectedAccess(e).write.size === 0);
    for (const entry of readOnly) {
      const actions = functionGrants(s.json, s.functionId(entry.function)).flatMap((g) => g.actions);
      expect(actions.filter((a) => WRITE_ACTIONS.includes(a))).toEqual([]);
    }
  });
});

describe('REST API', () => {
  const methods = () =>
    Object.values(s.template.findResources('AWS::ApiGateway::Method')).map((m) => ({
      path: resourcePath(s, m.Properties.ResourceId),
      method: m.Properties.HttpMethod as string,
      props: m.Properties as Record<string, unknown>,
    }));

  test('one proxy method per route-table method and nothing else (no CORS preflight, no catch-all)', () => {
    // A route that serves its subpaths (the console's files) has the same methods on the greedy resource below it.
    const expected = routes.flatMap((r) => r.methods.flatMap((m) => resourcePaths(r).map((path) => `${m} ${path}`))).sort();
    expect(methods().map((m) => `${m.method} ${m.path}`).sort()).toEqual(expected);
  });

  test.each(routes.flatMap((r) => r.methods.map((m) => [`${m} ${r.path}`, r, m] as const)))('%s invokes its own function through a Lambda proxy integration', (_label, route, method) => {
    const found = methods().find((m) => m.path === route.path && m.method === method)!;
    const integration = found.props.Integration as { Type: string; IntegrationHttpMethod: string; Uri: unknown };
    expect(integration.Type).toBe('AWS_PROXY');
    expect(integration.IntegrationHttpMethod).toBe('POST');
    expect(referencedId(integration.Uri)).toBe(s.functionId(route.function));
    // The API key the usage plan meters comes from the authorizer; the caller sends none.
    expect(found.props.AuthorizationType).toBe('CUSTOM');
    expect(referencedId(found.props.AuthorizerId)).toBe(Object.keys(s.template.findResources('AWS::ApiGateway::Authorizer'))[0]);
    expect(found.props.ApiKeyRequired).toBe(true);
  });

  test('path parameters are required and validated by API Gateway', () => {
    const validators = s.template.findResources('AWS::ApiGateway::RequestValidator');
    expect(Object.values(validators).map((v) => v.Properties)).toEqual([expect.objectContaining({ ValidateRequestParameters: true, ValidateRequestBody: false })]);
    for (const m of methods()) {
      const params = [...m.path.matchAll(/\{(\w+)\+?\}/g)].map((x) => x[1]);
      if (params.length === 0) {
        expect(m.props.RequestParameters).toBeUndefined();
        continue;
      }
      // The feed's cached GET also declares its cache key's optional parameters (see the feed cache below).
      const required = Object.entries(m.props.RequestParameters as Record<string, boolean>).filter(([, needed]) => needed);
      expect(Object.fromEntries(required)).toEqual(Object.fromEntries(params.map((p) => [`method.request.path.${p}`, true])));
      expect(referencedId(m.props.RequestValidatorId)).toBe(Object.keys(validators)[0]);
    }
  });

  /**
   * CloudFormation refuses a stack past 500 resources. The stack holds 383 with alarm e-mail on (its largest
   * form): 446 before each function's grants moved into its role's inline policy (no separate AWS::IAM::Policy,
   * no overflow managed policies), 468 before the functions shared one log group. The bound leaves about 40
   * resources of warning below it and 80 more below CloudFormation's cap. What a new entry costs is in
   * infra/README.md (Resource budget).
   */
  const RESOURCE_BOUND = 420;
  test(`the stack keeps headroom under CloudFormation's 500 resources per stack (alarm e-mail on, at most ${RESOURCE_BOUND})`, () => {
    const resources = Object.values(flagged().json.Resources);
    if (resources.length > RESOURCE_BOUND) {
      const byType = new Map<string, number>();
      for (const r of resources) byType.set(r.Type, (byType.get(r.Type) ?? 0) + 1);
      const top = [...byType].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([type, n]) => `${n} ${type}`).join(', ');
      throw new Error(
        `The stack has ${resources.length} resources, past the bound of ${RESOURCE_BOUND} (CloudFormation stops at 500). Most numerous: ${top}. ` +
          'Extend an existing function or worker instead of adding one, or share more (see infra/README.md, Resource budget); ' +
          'raise the bound only with the lead, and never past about 460.',
      );
    }
    expect(resources.length).toBeLessThanOrEqual(RESOURCE_BOUND);
  });

  test('API Gateway may invoke each function only from this API', () => {
    for (const route of routes) {
      const permissions = Object.values(s.template.findResources('AWS::Lambda::Permission')).filter(
        (p) => referencedId(p.Properties.FunctionName) === s.functionId(route.function) && p.Properties.Principal === 'apigateway.amazonaws.com',
      );
      // One permission per function, scoped to this API (its methods are the route's, all on this API).
      expect(permissions).toHaveLength(1);
      const [apiId] = Object.keys(s.template.findResources('AWS::ApiGateway::RestApi'));
      for (const p of permissions) expect(referencedId(p.Properties.SourceArn)).toBe(apiId);
    }
  });

  test('regional endpoint; the stage writes JSON access logs to a retained log group and never logs bodies', () => {
    s.template.hasResourceProperties('AWS::ApiGateway::RestApi', { EndpointConfiguration: { Types: ['REGIONAL'] } });
    const [stage] = Object.values(s.template.findResources('AWS::ApiGateway::Stage'));
    expect(stage!.Properties.StageName).toBe('prod');
    const destination = referencedId(stage!.Properties.AccessLogSetting.DestinationArn)!;
    expect(s.json.Resources[destination]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 } });
    // The status is written unquoted (a number, for the metric filters): substitute one to read the JSON.
    const format = JSON.parse((stage!.Properties.AccessLogSetting.Format as string).replace('$context.status', '200')) as Record<string, unknown>;
    expect(format).toMatchObject({ requestId: '$context.requestId', ip: '$context.identity.sourceIp', status: 200, resourcePath: '$context.resourcePath', responseType: '$context.error.responseType' });
    expect(stage!.Properties.MethodSettings).toContainEqual({ HttpMethod: '*', ResourcePath: '/*', LoggingLevel: 'ERROR', DataTraceEnabled: false, CachingEnabled: false });
  });
});

describe('account-wide API Gateway settings and execution logs', () => {
  const pushPolicy = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs']] };

  test('by default the stack creates the account role API Gateway logs with, and keeps it when the stack goes', () => {
    const accounts = Object.values(s.template.findResources('AWS::ApiGateway::Account'));
    expect(accounts).toHaveLength(1);
    expect(accounts[0]!.DeletionPolicy).toBe('Retain');
    const roleId = referencedId(accounts[0]!.Properties.CloudWatchRoleArn)!;
    expect(s.json.Resources[roleId]).toMatchObject({
      Type: 'AWS::IAM::Role',
      DeletionPolicy: 'Retain',
      Properties: { ManagedPolicyArns: [pushPolicy], AssumeRolePolicyDocument: { Statement: [expect.objectContaining({ Principal: { Service: 'apigateway.amazonaws.com' } })] } },
    });
  });

  test('-c apiGatewayAccountRole=existing leaves the account setting and its role alone', () => {
    const existing = quiet();
    existing.template.resourceCountIs('AWS::ApiGateway::Account', 0);
    expect(JSON.stringify(existing.json.Resources)).not.toContain('AmazonAPIGatewayPushToCloudWatchLogs');
    // Logging stays configured (at the level asked for, OFF here): it uses whatever role the account has.
    const [stage] = Object.values(existing.template.findResources('AWS::ApiGateway::Stage'));
    for (const setting of stage!.Properties.MethodSettings as { LoggingLevel?: string }[]) expect(setting.LoggingLevel).toBe('OFF');
    expect(() => synth({ context: { apiGatewayAccountRole: 'maybe' } })).toThrow(/-c apiGatewayAccountRole: .*create.*existing/);
  });

  test('every method logs at the configured level (a method setting replaces the stage-wide one), and never bodies', () => {
    for (const [t, expected] of [[s, 'ERROR'], [flagged(), 'INFO'], [quiet(), 'OFF']] as const) {
      const [stage] = Object.values(t.template.findResources('AWS::ApiGateway::Stage'));
      const settings = stage!.Properties.MethodSettings as { ResourcePath: string; LoggingLevel?: string; DataTraceEnabled?: boolean }[];
      expect(settings.length).toBe(1 + routes.reduce((n, r) => n + r.methods.length * resourcePaths(r).length, 0));
      for (const setting of settings) expect(setting).toMatchObject({ LoggingLevel: expected, DataTraceEnabled: false });
    }
    expect(() => synth({ context: { apiLogLevel: 'DEBUG' } })).toThrow(/-c apiLogLevel: /);
  });
});

describe('throttles (edge guard derived from the route table)', () => {
  const encode = (path: string) => path.replace(/\//g, '~1');

  test('every route method has a stage method throttle derived from its per-minute limit', () => {
    const [stage] = Object.values(s.template.findResources('AWS::ApiGateway::Stage'));
    const settings = (stage!.Properties.MethodSettings as Record<string, unknown>[]).filter((m) => m.ResourcePath !== '/*');
    const expected = routes.flatMap((r) =>
      r.methods.flatMap((m) => resourcePaths(r).map((path) => ({
        HttpMethod: m,
        ResourcePath: `/${encode(path)}`,
        ThrottlingRateLimit: stageThrottle(r).rateLimit,
        ThrottlingBurstLimit: stageThrottle(r).burstLimit,
        LoggingLevel: 'ERROR',
        DataTraceEnabled: false,
      }))),
    );
    expect(settings).toHaveLength(expected.length);
    expect(settings).toEqual(expect.arrayContaining(expected.map((e) => expect.objectContaining(e))));
  });

  test('the usage plan throttles every route method per tenant key', () => {
    const plans = Object.values(s.template.findResources('AWS::ApiGateway::UsagePlan'));
    expect(plans).toHaveLength(1);
    const [apiStage] = plans[0]!.Properties.ApiStages as { Throttle: Record<string, { RateLimit: number; BurstLimit: number }> }[];
    const expected = Object.fromEntries(
      routes.flatMap((r) => r.methods.flatMap((m) => resourcePaths(r).map((path) => [`${path}/${m}`, { RateLimit: tenantThrottle(r).rateLimit, BurstLimit: tenantThrottle(r).burstLimit }]))),
    );
    expect(apiStage!.Throttle).toEqual(expected);
  });

  test('the plan really applies: API keys come from a REQUEST authorizer keyed only by Host, cached an hour', () => {
    s.template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    const authorizerResources = Object.values(s.template.findResources('AWS::ApiGateway::Authorizer'));
    expect(authorizerResources).toHaveLength(1);
    const props = authorizerResources[0]!.Properties as Record<string, unknown>;
    expect(props).toMatchObject({ Type: 'REQUEST', IdentitySource: 'method.request.header.Host', AuthorizerResultTtlInSeconds: 3600 });
    expect(JSON.stringify(props.AuthorizerUri)).toContain(s.functionId('tenant-api-key'));
    s.template.hasResourceProperties('AWS::Lambda::Permission', { Principal: 'apigateway.amazonaws.com', FunctionName: { 'Fn::GetAtt': [s.functionId('tenant-api-key'), 'Arn'] } });
  });

  test('the default tenant’s key is in the plan, with the value the authorizer falls back to', () => {
    const keys = Object.entries(s.template.findResources('AWS::ApiGateway::ApiKey'));
    expect(keys).toHaveLength(1);
    const [keyId, key] = keys[0]!;
    const authorizerEnv = (s.json.Resources[s.functionId('tenant-api-key')]!.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(key.Properties).toMatchObject({ Enabled: true, Value: authorizerEnv.DEFAULT_TENANT_API_KEY });
    const [planId] = Object.keys(s.template.findResources('AWS::ApiGateway::UsagePlan'));
    s.template.hasResourceProperties('AWS::ApiGateway::UsagePlanKey', { KeyId: { Ref: keyId }, KeyType: 'API_KEY', UsagePlanId: { Ref: planId } });
  });

  test('the derivation: a per-minute limit becomes a per-second rate with room for a burst', () => {
    expect(stageThrottle({ rateLimit: 60 })).toEqual({ rateLimit: 50, burstLimit: 100 });
    expect(stageThrottle({ rateLimit: 30 })).toEqual({ rateLimit: 25, burstLimit: 50 });
    expect(tenantThrottle({ rateLimit: 120 })).toEqual({ rateLimit: 40, burstLimit: 120 });
    expect(tenantThrottle({ rateLimit: 30 })).toEqual({ rateLimit: 10, burstLimit: 30 });
    // An owner within the function's exact limit is never stopped at the edge by a bucket smaller than a minute's allowance,
    // and one tenant's share is smaller than the whole stage's.
    for (const route of routes) {
      if (route.rateLimit !== null) {
        expect(tenantThrottle(route).burstLimit).toBeGreaterThanOrEqual(route.rateLimit);
        expect(stageThrottle(route).burstLimit).toBeGreaterThanOrEqual(route.rateLimit);
      }
      expect(tenantThrottle(route).rateLimit).toBeLessThan(stageThrottle(route).rateLimit);
    }
  });
});

describe('tables', () => {
  test('one table per entry of the table list, and no other', () => {
    expect(Object.keys(s.template.findResources('AWS::DynamoDB::Table'))).toHaveLength(tableKeys.length);
  });

  test.each(tableKeys.map((k) => [k] as const))('%s: keys, indexes and TTL as declared; on demand, point-in-time recovery, retained', (key) => {
    const def: TableDefinition = tables[key];
    const resource = s.json.Resources[s.tableId(key)]!;
    expect(resource.DeletionPolicy).toBe('Retain');
    expect(resource.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      KeySchema: [{ AttributeName: def.partitionKey.name, KeyType: 'HASH' }, ...(def.sortKey ? [{ AttributeName: def.sortKey.name, KeyType: 'RANGE' }] : [])],
    });
    const indexes = (resource.Properties!.GlobalSecondaryIndexes ?? []) as { IndexName: string; KeySchema: unknown; Projection: unknown }[];
    expect(indexes).toEqual(
      (def.indexes ?? []).map((index) => ({
        IndexName: index.name,
        KeySchema: [{ AttributeName: index.partitionKey.name, KeyType: 'HASH' }, ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' }] : [])],
        Projection: index.include ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.include] } : { ProjectionType: 'ALL' },
      })),
    );
    // An index that lists what it holds never holds a device's certificate or profile.
    for (const index of indexes) expect(JSON.stringify(index.Projection)).not.toMatch(/p12|mobileprovision/);
    const attributes = Object.fromEntries((resource.Properties!.AttributeDefinitions as { AttributeName: string; AttributeType: string }[]).map((a) => [a.AttributeName, a.AttributeType]));
    for (const a of [def.partitionKey, def.sortKey, ...(def.indexes ?? []).flatMap((i) => [i.partitionKey, i.sortKey])]) {
      if (a) expect(attributes[a.name]).toBe(a.type);
    }
    if (def.ttlAttribute) expect(resource.Properties!.TimeToLiveSpecification).toEqual({ AttributeName: def.ttlAttribute, Enabled: true });
    else expect(resource.Properties!.TimeToLiveSpecification).toBeUndefined();
  });

  test('removalPolicy=destroy deletes tables, key and log groups with the stack', () => {
    const destroyed = flagged();
    for (const type of ['AWS::DynamoDB::Table', 'AWS::KMS::Key', 'AWS::Logs::LogGroup']) {
      for (const resource of Object.values(destroyed.template.findResources(type))) expect(resource.DeletionPolicy).toBe('Delete');
    }
  });

  test('an unknown removal policy stops the synth with a clear message', () => {
    expect(() => synth({ context: { removalPolicy: 'snapshot' } })).toThrow(/-c removalPolicy: .*retain.*destroy/);
  });
});

describe('account secrets key', () => {
  test('one KMS key with rotation, retained', () => {
    s.template.resourceCountIs('AWS::KMS::Key', 1);
    s.template.hasResource('AWS::KMS::Key', { Properties: Match.objectLike({ EnableKeyRotation: true }), DeletionPolicy: 'Retain' });
  });
});

describe('schedules', () => {
  test('one EventBridge rule per scheduled job of the shared list', () => {
    s.template.resourceCountIs('AWS::Events::Rule', scheduledJobs.length);
    for (const job of scheduledJobs as readonly ScheduledJobDefinition[]) {
      s.template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: Schedule.rate(Duration.minutes(job.everyMinutes)).expressionString,
        State: 'ENABLED',
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [s.functionId(job.function), 'Arn'] } })],
      });
    }
  });

  test('a scheduled job gets a rule, its own function with only its declared tables, and invoke permission for EventBridge', () => {
    // Proves the wiring whatever the shared list holds today, with one job borrowed from an existing folder. A
    // job's rule, function, grants and permission are its own, so a stack with one route beside it shows them
    // as the whole route table would, at a fraction of a whole-stack synth.
    const job: ScheduledJobDefinition = { function: 'source-feed', everyMinutes: 5, description: 'test job', data: { read: ['devices'], write: ['counters'] }, secrets: true };
    const withJob = synth({ routes: routes.filter((r) => r.function !== 'source-feed').slice(0, 1), scheduledJobs: [job] });
    const fnId = withJob.functionId('source-feed');
    withJob.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
    withJob.template.hasResourceProperties('AWS::Lambda::Permission', { Principal: 'events.amazonaws.com', FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] } });
    const variables = (withJob.json.Resources[fnId]!.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(variables).filter((k) => k.startsWith('TABLE_')).sort()).toEqual(['TABLE_COUNTERS', 'TABLE_DEVICES', 'TABLE_LEASES']);
    expect(variables.ACCOUNT_SECRETS_KEY_ARN).toBeDefined();
    expect(withJob.json.Resources[fnId]!.Properties!.Timeout).toBe(270);
    withJob.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: fnId }, MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 300 });
  });

  test.each((scheduledJobs as readonly ScheduledJobDefinition[]).map((j) => [j.function, j] as const))(
    '%s: its run ends before the next is due; no Lambda or EventBridge retry; failures go to the watched queue',
    (name, job) => {
      const fnId = s.functionId(name);
      const interval = job.everyMinutes * 60;
      const timeout = s.json.Resources[fnId]!.Properties!.Timeout as number;
      // The lease outlives a killed run by a few seconds; that must still end before the next run.
      expect(timeout).toBeLessThanOrEqual(Math.min(300, interval - 30));
      const [queueId] = Object.keys(s.template.findResources('AWS::SQS::Queue'));
      const configs = Object.values(s.template.findResources('AWS::Lambda::EventInvokeConfig')).filter((c) => referencedId(c.Properties.FunctionName) === fnId);
      expect(configs.map((c) => c.Properties)).toEqual([
        {
          FunctionName: { Ref: fnId },
          Qualifier: '$LATEST',
          MaximumRetryAttempts: 0,
          MaximumEventAgeInSeconds: Math.max(60, interval),
          DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
        },
      ]);
      s.template.hasResourceProperties('AWS::Events::Rule', {
        Targets: [
          Match.objectLike({
            Arn: { 'Fn::GetAtt': [fnId, 'Arn'] },
            RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: Math.max(60, interval) },
            DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queueId, 'Arn'] } },
          }),
        ],
      });
    },
  );

  test('one failure queue (encrypted, TLS only, 14 days) with an alarm on any message in it', () => {
    // The other queue is the stream consumers' (see "stream consumers").
    s.template.resourceCountIs('AWS::SQS::Queue', 2);
    const [queueId, queue] = Object.entries(s.template.findResources('AWS::SQS::Queue')).find(([id]) => id.startsWith('Schedules'))!;
    expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    s.template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  test('an interval that is not a whole number of minutes stops the synth', () => {
    const job: ScheduledJobDefinition = { function: 'source-feed', everyMinutes: 0.5, description: 'too often', data: {} };
    expect(() => synth({ routes: routes.filter((r) => r.function !== 'source-feed'), scheduledJobs: [job] })).toThrow(/everyMinutes must be a whole number/);
  });
});

describe('outputs', () => {
  test('the API URL, the region, the secrets key, the functions\' log group and every table name, and nothing else', () => {
    const outputs = s.json.Outputs as Record<string, { Value: unknown }>;
    const expected = ['ApiUrl', 'Region', 'AccountSecretsKeyArn', 'UsagePlanId', 'FunctionLogGroup', ...tableKeys.map((k) => `Table${k.charAt(0).toUpperCase()}${k.slice(1)}`)];
    expect(Object.keys(outputs).sort()).toEqual(expected.sort());
    for (const key of tableKeys) expect(outputs[`Table${key.charAt(0).toUpperCase()}${key.slice(1)}`]!.Value).toEqual({ Ref: s.tableId(key) });
    expect(JSON.stringify(outputs.ApiUrl!.Value)).toContain('execute-api');
    expect(outputs.Region!.Value).toEqual({ Ref: 'AWS::Region' });
  });
});

describe('monitoring: metrics, alarms, notifications, dashboard', () => {
  type Alarm = { Properties: Record<string, unknown> };
  const alarms = (t: Read = s) => Object.values(t.template.findResources('AWS::CloudWatch::Alarm')) as Alarm[];
  const topic = () => Object.keys(s.template.findResources('AWS::SNS::Topic'))[0];
  const service = [{ Name: 'service', Value: 'appsource' }];

  test('the functions write their metrics under the stack name (POWERTOOLS_METRICS_NAMESPACE), apart from other stacks', () => {
    for (const entry of entries) {
      const variables = (s.json.Resources[s.functionId(entry.function)]!.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables.POWERTOOLS_METRICS_NAMESPACE).toBe('AppSource');
    }
    const other = flagged();
    const variables = (other.json.Resources[other.functionId(routes[0].function)]!.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables.POWERTOOLS_METRICS_NAMESPACE).toBe('AppSourceTest');
  });

  test('the access log feeds three metric filters: requests and 5xx per resource path, and API Gateway’s own 429s', () => {
    const [logGroupId] = Object.entries(s.template.findResources('AWS::Logs::LogGroup')).find(([id]) => id.includes('AccessLogs'))!;
    const filters = Object.values(s.template.findResources('AWS::Logs::MetricFilter')).map((f) => f.Properties as Record<string, unknown>);
    expect(filters.map((f) => referencedId(f.LogGroupName))).toEqual([logGroupId, logGroupId, logGroupId]);
    const byName = Object.fromEntries(filters.map((f) => [(f.MetricTransformations as { MetricName: string }[])[0]!.MetricName, f]));
    expect(byName.ApiRequests).toMatchObject({ FilterPattern: '{ $.status > 0 }', MetricTransformations: [{ MetricNamespace: 'AppSource', MetricValue: '1', Dimensions: [{ Key: 'resourcePath', Value: '$.resourcePath' }] }] });
    expect(byName.Api5xx).toMatchObject({ FilterPattern: '{ $.status >= 500 }', MetricTransformations: [{ Dimensions: [{ Key: 'resourcePath', Value: '$.resourcePath' }] }] });
    expect(byName.GatewayThrottled).toMatchObject({ FilterPattern: '{ $.responseType = "THROTTLED" }', MetricTransformations: [{ MetricNamespace: 'AppSource', MetricValue: '1' }] });
  });

  type Query = { Id: string; Expression?: string; ReturnData?: boolean; MetricStat?: { Metric: { MetricName: string; Dimensions?: { Value: string }[] } } };
  const queries = (a: Alarm) => (a.Properties.Metrics ?? []) as Query[];
  const rateAlarms = (t: Read = s) => alarms(t).filter((a) => queries(a).some((q) => q.MetricStat?.Metric.MetricName === 'Api5xx'));
  const paths = [...new Set(routes.map((r) => r.path))].sort();

  test.each(routes.map((r) => [r.function, r] as const))('%s: watched by one alarm on its 5xx rate (over 5 %% in 2 of 3 five-minute periods) that names it', (_name, route) => {
    const found = rateAlarms().filter((a) => JSON.stringify(a.Properties.Metrics).includes(`"Value":"${route.path}"`));
    expect(found).toHaveLength(1);
    const props = found[0]!.Properties;
    expect(props).toMatchObject({ Threshold: 5, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 3, DatapointsToAlarm: 2, TreatMissingData: 'notBreaching' });
    expect(props.AlarmDescription).toContain(`(${route.path})`);
    expect(props.AlarmDescription).toMatch(new RegExp(`\\b${route.function}\\b`));
    // The path's rate is computed from its own two counts, and the value the alarm compares is its group's
    // highest rate, so this path alone over 5 % breaches.
    const metrics = queries(found[0]!);
    const idOf = (name: string) => metrics.find((m) => m.MetricStat?.Metric.MetricName === name && m.MetricStat.Metric.Dimensions?.[0]?.Value === route.path)!.Id;
    const rate = metrics.find((m) => m.Expression === `100 * FILL(${idOf('Api5xx')}, 0) / ${idOf('ApiRequests')}`)!;
    expect(rate).toBeDefined();
    const watched = metrics.filter((m) => m.ReturnData !== false);
    expect(watched).toHaveLength(1);
    if (watched[0] !== rate) expect(watched[0]!.Expression).toMatch(new RegExp(`^MAX\\(\\[(\\w+, )*${rate.Id}(, \\w+)*\\]\\)$`));
  });

  test('5xx alarms group the paths in path order, 5 to an alarm, within CloudWatch\'s limits for a metric-math alarm', () => {
    const groups = rateAlarms().map((a) => queries(a).filter((q) => q.MetricStat?.Metric.MetricName === 'Api5xx').map((q) => q.MetricStat!.Metric.Dimensions![0]!.Value));
    expect(groups.flat().sort()).toEqual(paths);
    expect(groups.map((g) => [...g].sort()).sort((a, b) => (a[0]! < b[0]! ? -1 : 1))).toEqual(
      Array.from({ length: Math.ceil(paths.length / PATHS_PER_5XX_ALARM) }, (_, i) => paths.slice(i * PATHS_PER_5XX_ALARM, (i + 1) * PATHS_PER_5XX_ALARM)),
    );
    for (const a of rateAlarms()) {
      // PutMetricAlarm: at most 10 metrics and 10 expressions (20 queries), one of them returning data;
      // AlarmDescription: at most 1024 characters.
      expect(queries(a).filter((q) => q.MetricStat).length).toBeLessThanOrEqual(10);
      expect(queries(a).filter((q) => q.Expression).length).toBeLessThanOrEqual(10);
      expect(queries(a).filter((q) => q.ReturnData !== false)).toHaveLength(1);
      expect((a.Properties.AlarmDescription as string).length).toBeLessThanOrEqual(1024);
    }
  });

  test('a group left with one path is watched on that path\'s rate itself (MAX of one series is a single number)', () => {
    const six = new Set(paths.slice(0, PATHS_PER_5XX_ALARM + 1));
    const few = synth({ routes: routes.filter((r) => six.has(r.path)) });
    const groups = rateAlarms(few).map(queries);
    expect(groups.map((g) => g.filter((q) => q.MetricStat).length).sort()).toEqual([10, 2]);
    const lone = groups.find((g) => g.length === 3)!;
    expect(lone.filter((q) => q.ReturnData !== false).map((q) => q.Expression)).toEqual([expect.stringMatching(/^100 \* FILL\(/)]);
  });

  test('functions serving different methods of one path share its access-log counts, so its alarm names them all', () => {
    const path = '/api/appstore/manage/sources/{source_id}';
    const found = rateAlarms().filter((a) => JSON.stringify(a.Properties.Metrics).includes(`"Value":"${path}"`));
    expect(found.map((a) => a.Properties.AlarmDescription)).toEqual([expect.stringContaining(`update-source and source-detail (${path})`)]);
  });

  test('an account low on free slots, a reservation older than 72 h, and Lambda throttling each raise an alarm', () => {
    expect(alarms()).toContainEqual(
      expect.objectContaining({
        Properties: expect.objectContaining({ Namespace: 'AppSource', MetricName: metricNames.freeSlots, Dimensions: service, Statistic: 'Minimum', Period: 3600, Threshold: 10, ComparisonOperator: 'LessThanThreshold' }),
      }),
    );
    expect(alarms()).toContainEqual(
      expect.objectContaining({
        Properties: expect.objectContaining({ Namespace: 'AppSource', MetricName: metricNames.reservationAge, Dimensions: service, Statistic: 'Maximum', Threshold: 72 * 3600, ComparisonOperator: 'GreaterThanThreshold' }),
      }),
    );
    expect(alarms()).toContainEqual(expect.objectContaining({ Properties: expect.objectContaining({ Namespace: 'AWS/Lambda', MetricName: 'Throttles', Threshold: 1 }) }));
    const lower = flagged();
    expect(alarms(lower).find((a) => a.Properties.MetricName === metricNames.freeSlots)!.Properties.Threshold).toBe(3);
    expect(() => synth({ context: { freeSlotsAlarmThreshold: 'few' } })).toThrow(/-c freeSlotsAlarmThreshold/);
  });

  test('every alarm notifies one SNS topic (TLS only); e-mail only with -c alarmEmail', () => {
    // One 5xx alarm per 5 resource paths (functions on one path share it); 4 of the service; the stream
    // consumers' failure queue, and per consumer its errors and iterator age.
    expect(alarms().length).toBe(Math.ceil(paths.length / PATHS_PER_5XX_ALARM) + 4 + 1 + 2 * streamConsumers.length);
    const topicId = topic();
    for (const alarm of alarms()) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topicId }]);
    }
    s.template.resourceCountIs('AWS::SNS::Topic', 1);
    s.template.resourceCountIs('AWS::SNS::Subscription', 0);
    const mailed = flagged();
    mailed.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: { Ref: topicId } });
    expect(() => synth({ context: { alarmEmail: 'not-an-address' } })).toThrow(/-c alarmEmail/);
  });

  test('one dashboard shows the business, Apple, account, job, API (429s included) and Lambda concurrency metrics', () => {
    const dashboards = Object.values(s.template.findResources('AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    // The template holds the body resolved (a join of strings and references).
    const body = JSON.stringify(dashboards[0]!.Properties.DashboardBody);
    for (const name of [...Object.values(metricNames), 'GatewayThrottled', '4XXError', '5XXError', 'ConcurrentExecutions', 'Throttles', 'ApproximateNumberOfMessagesVisible']) {
      expect(body).toContain(name);
    }
    for (const job of scheduledJobs) expect(body).toContain(job.function);
    for (const route of routes) expect(body).toContain(route.path);
  });
});

describe('download figures: the gate\'s lines reach their counter (shared/domain/stats/README.md)', () => {
  test('one subscription on the functions\' log group, for the download lines only, to the reservation worker; CloudWatch Logs may invoke it from that group only', () => {
    const filters = Object.entries(s.template.findResources('AWS::Logs::SubscriptionFilter'));
    expect(filters).toHaveLength(1);
    const [filterId, filter] = filters[0]!;
    const workerId = s.functionId(DOWNLOAD_COUNTER_FUNCTION);
    expect(filter.Properties).toEqual({ LogGroupName: { Ref: functionLogsId() }, FilterPattern: '{ $.download.app >= 0 }', DestinationArn: { 'Fn::GetAtt': [workerId, 'Arn'] } });
    const permissions = Object.entries(s.template.findResources('AWS::Lambda::Permission')).filter(([, p]) => p.Properties.Principal === 'logs.amazonaws.com');
    expect(permissions.map(([, p]) => p.Properties)).toEqual([{ Action: 'lambda:InvokeFunction', FunctionName: { 'Fn::GetAtt': [workerId, 'Arn'] }, Principal: 'logs.amazonaws.com', SourceArn: { 'Fn::GetAtt': [functionLogsId(), 'Arn'] } }]);
    // The filter is created after the permission (CloudWatch Logs tests the invoke when the filter is put).
    expect((s.json.Resources[filterId] as { DependsOn?: string[] }).DependsOn).toContain(permissions[0]![0]);
  });

  test('the pattern is the field the gate prints its lines under', () => {
    expect(DOWNLOAD_LINES_PATTERN.logPatternString).toBe(`{ $.${DOWNLOAD_FIELD}.app >= 0 }`);
  });
});

describe('stream consumers', () => {
  test.each((streamConsumers as readonly StreamConsumerDefinition[]).map((c) => [c.function, c] as const))(
    '%s: its table streams new images; INSERT records only, per-record failures, bisect, bounded retries, an on-failure queue, alarms',
    (name, consumer) => {
      const tableId = s.tableId(consumer.table);
      expect(s.json.Resources[tableId]!.Properties!.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
      const mappings = Object.values(s.template.findResources('AWS::Lambda::EventSourceMapping')).filter((m) => JSON.stringify(m.Properties.FunctionName).includes(s.functionId(name)));
      expect(mappings).toHaveLength(1);
      const [queueId] = Object.entries(s.template.findResources('AWS::SQS::Queue')).find(([id]) => id.startsWith('Streams'))!;
      expect(mappings[0]!.Properties).toMatchObject({
        EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: consumer.batchSize,
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: consumer.retryAttempts,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
        FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'] }) }] },
      });
      s.template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: 'AWS/SQS', Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }], Threshold: 1 });
      s.template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: 'AWS/Lambda', MetricName: 'IteratorAge', Dimensions: [{ Name: 'FunctionName', Value: { Ref: s.functionId(name) } }] });
      s.template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: 'AWS/Lambda', MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: { Ref: s.functionId(name) } }] });
    },
  );
});

describe('the feed cache flag (the default cache itself: feed-cache.test.ts)', () => {
  type MethodSetting = { ResourcePath: string; CachingEnabled?: boolean; CacheTtlInSeconds?: number };
  const stageOf = (t: Read) => Object.values(t.template.findResources('AWS::ApiGateway::Stage'))[0]!.Properties as Record<string, unknown>;
  const settingsOf = (t: Read) => stageOf(t).MethodSettings as MethodSetting[];
  const feedPath = `/${sourceFeedRoute.path.replace(/\//g, '~1')}`;

  test('-c feedCacheSeconds sets the TTL; 0 deploys no cache at all; a bad value stops the synth', () => {
    expect(settingsOf(flagged()).filter((m) => m.CachingEnabled)).toEqual([expect.objectContaining({ ResourcePath: feedPath, CacheTtlInSeconds: 300 })]);
    const none = quiet();
    expect(stageOf(none).CacheClusterEnabled).toBeUndefined();
    expect(settingsOf(none).some((m) => m.CachingEnabled !== undefined)).toBe(false);
    const methods = Object.values(none.template.findResources('AWS::ApiGateway::Method'));
    expect(methods.some((m) => (m.Properties.Integration as { CacheKeyParameters?: unknown }).CacheKeyParameters !== undefined)).toBe(false);
    expect(() => synth({ context: { feedCacheSeconds: 7200 } })).toThrow(/-c feedCacheSeconds: /);
    expect(() => synth({ context: { feedCacheSeconds: 'soon' } })).toThrow(/-c feedCacheSeconds: /);
  });
});
