/** `--stack NAME`: a deployed stack's outputs become the variables the CLI's code reads (no AWS needed). */
import { loadStackTables } from '../../infra/admin/stack-target';
import { CliError } from '../../infra/admin/cli-types';
import { tableName } from '../../shared/db/table-names';
import { sharedSynth } from '../support/shared-synth';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

let outputKeys: string[];
beforeAll(async () => {
  outputKeys = Object.keys((await sharedSynth()).json.Outputs ?? {});
});

/** What CloudFormation answers for a deployed stack of this version: one value per output of the template. */
function deployedOutputs(): { OutputKey: string; OutputValue: string }[] {
  return outputKeys.map((key) => ({ OutputKey: key, OutputValue: key === 'Region' ? 'eu-west-1' : `AppSource-${key}-ABC123` }));
}

test('maps every table output to TABLE_*, the region to AWS_REGION, the key to ACCOUNT_SECRETS_KEY_ARN, and drops a local endpoint', async () => {
  process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:8000';
  const asked: string[] = [];
  const env = await loadStackTables('AppSource', async (stack) => {
    asked.push(stack);
    return deployedOutputs();
  });
  expect(asked).toEqual(['AppSource']);
  expect(env).toMatchObject({
    AWS_REGION: 'eu-west-1',
    ACCOUNT_SECRETS_KEY_ARN: 'AppSource-AccountSecretsKeyArn-ABC123',
    TABLE_TENANTS: 'AppSource-TableTenants-ABC123',
    TABLE_RATE_LIMITS: 'AppSource-TableRateLimits-ABC123',
  });
  expect(process.env.DYNAMODB_ENDPOINT).toBeUndefined();
  expect(process.env.AWS_REGION).toBe('eu-west-1');
  // The repositories resolve the deployed names through the same variables.
  expect(tableName('users')).toBe('AppSource-TableUsers-ABC123');
  expect(tableName('rateLimits')).toBe('AppSource-TableRateLimits-ABC123');
});

test('a stack without the table outputs (another project or an old version) is refused, naming what is missing', async () => {
  const outputs = deployedOutputs().filter((o) => o.OutputKey !== 'TableDevices');
  const attempt = loadStackTables('Other', async () => outputs);
  await expect(attempt).rejects.toThrow(CliError);
  await expect(loadStackTables('Other', async () => outputs)).rejects.toThrow('--stack Other: the stack has no output(s) TableDevices; deploy this version of the stack first');
  expect(process.env.TABLE_USERS).toBe(saved.TABLE_USERS);
});

test('a CloudFormation failure (unknown stack, no credentials) becomes an operator error with a hint', async () => {
  const attempt = loadStackTables('Missing', async () => {
    throw new Error('Stack with id Missing does not exist');
  });
  await expect(attempt).rejects.toThrow('--stack Missing: cannot read the stack\'s outputs (Stack with id Missing does not exist); check the stack name, --region and your AWS credentials');
});
