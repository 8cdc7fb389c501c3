/**
 * The operator CLI against a "deployed" stack, end to end and offline: a stand-in CloudFormation endpoint
 * answers DescribeStacks with the outputs of the synthesized template, naming tables that exist in DynamoDB
 * Local under deployed-style names. The CLI must find them through `--stack` alone. A stand-in API Gateway
 * endpoint (REST JSON: CreateApiKey, CreateUsagePlanKey) records the tenant keys `tenant create` adds.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/db/client';
import { createTables } from '../../shared/db/create-tables';
import { tableKeys } from '../../shared/db/tables';
import { tableEnvVar } from '../../shared/db/table-names';
import { sharedSynth } from '../support/shared-synth';

const run = promisify(execFile);
const stackName = 'AppSource';
const suffix = randomBytes(3).toString('hex');
const deployedName = (outputKey: string) => `${stackName}-${outputKey}-${suffix}`;

let outputs: Record<string, string>;
let server: Server | undefined;
let cfnUrl: string;
let apiGatewayUrl: string;
/** Requests the stand-in API Gateway received, and whether it should refuse them. */
const apiGatewayCalls: { method: string; path: string; body: Record<string, unknown> }[] = [];
let apiGatewayRefuses = false;
const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

beforeAll(async () => {
  outputs = Object.fromEntries(
    Object.keys((await sharedSynth()).json.Outputs ?? {}).map((key) => [key, key === 'Region' ? 'us-east-1' : key === 'ApiUrl' ? 'https://x.execute-api.us-east-1.amazonaws.com/prod/' : deployedName(key)]),
  );
  // The tables as a deployment would have named them, in this run's DynamoDB Local.
  const saved = { ...process.env };
  for (const key of tableKeys) process.env[tableEnvVar(key)] = outputs[`Table${key.charAt(0).toUpperCase()}${key.slice(1)}`];
  await createTables();
  process.env = saved;

  // CloudFormation's query protocol, just DescribeStacks.
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url?.startsWith('/apigateway/')) {
        const path = req.url.slice('/apigateway'.length);
        const parsed = JSON.parse(body || '{}') as Record<string, unknown>;
        apiGatewayCalls.push({ method: req.method ?? '', path, body: parsed });
        res.setHeader('Content-Type', 'application/json');
        if (apiGatewayRefuses) {
          res.statusCode = 403;
          res.setHeader('x-amzn-ErrorType', 'AccessDeniedException');
          res.end(JSON.stringify({ message: 'not allowed to create API keys' }));
          return;
        }
        res.statusCode = 201;
        if (path === '/apikeys') res.end(JSON.stringify({ id: `key${apiGatewayCalls.length}`, name: parsed.name, value: parsed.value, enabled: parsed.enabled }));
        else res.end(JSON.stringify({ id: parsed.keyId, type: parsed.keyType }));
        return;
      }
      const params = new URLSearchParams(body);
      res.setHeader('Content-Type', 'text/xml');
      if (params.get('Action') !== 'DescribeStacks' || params.get('StackName') !== stackName) {
        res.statusCode = 400;
        res.end(
          `<ErrorResponse><Error><Type>Sender</Type><Code>ValidationError</Code><Message>Stack with id ${xml(params.get('StackName') ?? '')} does not exist</Message></Error><RequestId>r1</RequestId></ErrorResponse>`,
        );
        return;
      }
      const members = Object.entries(outputs)
        .map(([k, v]) => `<member><OutputKey>${k}</OutputKey><OutputValue>${xml(v)}</OutputValue></member>`)
        .join('');
      res.end(
        `<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member><StackName>${stackName}</StackName><StackId>arn:aws:cloudformation:us-east-1:123456789012:stack/${stackName}/1</StackId><CreationTime>2026-01-01T00:00:00Z</CreationTime><StackStatus>CREATE_COMPLETE</StackStatus><Outputs>${members}</Outputs></member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>r2</RequestId></ResponseMetadata></DescribeStacksResponse>`,
      );
    });
  });
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  const address = listening.address();
  cfnUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  apiGatewayUrl = `${cfnUrl}/apigateway`;
}, 300_000); // synthesizing the whole stack (API, jobs, alarms, dashboard) takes minutes on a busy machine
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** The CLI as an operator runs it: no TABLE_* and no DYNAMODB_ENDPOINT, only AWS endpoints and credentials. */
function admin(args: string[]) {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_ENDPOINT_URL_CLOUDFORMATION: cfnUrl,
    AWS_ENDPOINT_URL_API_GATEWAY: apiGatewayUrl,
    // The "region's DynamoDB" is this run's DynamoDB Local.
    AWS_ENDPOINT_URL_DYNAMODB: process.env.DYNAMODB_ENDPOINT,
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  };
  return run(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], { env, encoding: 'utf8' }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

test('--stack NAME --region R: the CLI writes to the tables the stack outputs name', async () => {
  const result = await admin(['tenant', 'create', '--name', 'Deployed shop', '--domain', `shop-${suffix}.example.com`, '--stack', stackName, '--region', 'us-east-1']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const { tenant_id } = JSON.parse(result.stdout) as { tenant_id: string };
  const { Items } = await documentClient().send(new ScanCommand({ TableName: outputs.TableTenants }));
  expect(Items?.map((i) => i.tenant_id)).toContain(tenant_id);
});

test('an unknown stack is an operator error on stderr, with a non-zero exit and nothing on stdout', async () => {
  const result = await admin(['tenant', 'create', '--name', 'Nowhere', '--stack', 'NoSuchStack', '--region', 'us-east-1']);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe(
    "Error: --stack NoSuchStack: cannot read the stack's outputs (Stack with id NoSuchStack does not exist); check the stack name, --region and your AWS credentials\n",
  );
});

describe('tenant create --stack: the tenant gets its own API key in the usage plan', () => {
  beforeEach(() => {
    apiGatewayCalls.length = 0;
    apiGatewayRefuses = false;
  });

  test('the key is created, attached to the stack’s plan, and its value stored on the tenant for the authorizer', async () => {
    const result = await admin(['tenant', 'create', '--name', 'Keyed shop', '--domain', `keyed-${suffix}.example.com`, '--stack', stackName, '--region', 'us-east-1']);
    expect(result.stderr).toBe('');
    const { tenant_id } = JSON.parse(result.stdout) as { tenant_id: string };
    expect(apiGatewayCalls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /apikeys', `POST /usageplans/${outputs.UsagePlanId}/keys`]);
    const value = apiGatewayCalls[0]!.body.value as string;
    expect(apiGatewayCalls[0]!.body).toMatchObject({ name: `tenant-${tenant_id}`, enabled: true });
    expect(value.length).toBeGreaterThanOrEqual(20);
    expect(apiGatewayCalls[1]!.body).toEqual({ keyId: 'key1', keyType: 'API_KEY' });
    const { Items } = await documentClient().send(new ScanCommand({ TableName: outputs.TableTenants }));
    expect(Items?.find((i) => i.tenant_id === tenant_id)?.api_key).toBe(value);
  });

  test('when API Gateway refuses, the CLI fails and stores no tenant (a stored tenant never names a key the plan lacks)', async () => {
    apiGatewayRefuses = true;
    const domain = `refused-${suffix}.example.com`;
    const result = await admin(['tenant', 'create', '--name', 'Refused', '--domain', domain, '--stack', stackName, '--region', 'us-east-1']);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('not allowed to create API keys');
    const { Items } = await documentClient().send(new ScanCommand({ TableName: outputs.TableTenants }));
    expect(Items?.some((i) => i.domain === domain)).toBe(false);
  });
});
