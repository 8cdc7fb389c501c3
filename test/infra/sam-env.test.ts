/** The `sam local --env-vars` file generated from the synthesized template. */
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { templateFunctions } from '../../infra/tooling/cloud-assembly';
import { samEnvVars } from '../../infra/tooling/sam-env';
import { authorizers, routes, scheduledJobs, streamConsumers } from '../../shared/routes';
import { tableKeys } from '../../shared/db/tables';
import { tableEnvVar, tableSuffix } from '../../shared/db/table-names';
import { sharedSynth, type SharedSynth } from '../support/shared-synth';

let s: SharedSynth;
beforeAll(async () => {
  s = await sharedSynth();
});

test('every function gets the local endpoint and the local names of exactly the tables it declares', () => {
  const env = samEnvVars(s.json, { endpoint: 'http://host.docker.internal:8000', tablePrefix: 'appsrc-', logLevel: 'DEBUG' });
  const fns = templateFunctions(s.json);
  expect(fns.map((f) => f.name).sort()).toEqual([...routes, ...scheduledJobs, ...authorizers, ...streamConsumers].map((e) => e.function).sort());
  expect(Object.keys(env).sort()).toEqual(fns.map((f) => f.logicalId).sort());
  for (const fn of fns) {
    const vars = env[fn.logicalId]!;
    expect(vars.DYNAMODB_ENDPOINT).toBe('http://host.docker.internal:8000');
    expect(vars.POWERTOOLS_LOG_LEVEL).toBe('DEBUG');
    // SAM ignores variables the template does not declare: every override must be a declared one.
    for (const name of Object.keys(vars)) expect(fn.environment).toContain(name);
    for (const key of tableKeys) {
      if (fn.environment.includes(tableEnvVar(key))) expect(vars[tableEnvVar(key)]).toBe(`appsrc-${tableSuffix(key)}`);
    }
    if (fn.environment.includes('ACCOUNT_SECRETS_KEY_ARN')) expect(vars.ACCOUNT_SECRETS_KEY_ARN).toBe('');
    // The authorizer's default key is a CloudFormation expression in the template; locally any key will do.
    expect(vars.DEFAULT_TENANT_API_KEY).toBe(fn.name === 'tenant-api-key' ? 'local-default-tenant-key' : undefined);
  }
});

test('npm run sam:env writes the file for the assembly and prints the sam command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sam-env-'));
  const out = join(dir, 'env.json');
  const stdout = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'bin/sam-env.ts', '--assembly', s.outdir, '--out', out, '--endpoint', 'http://127.0.0.1:8000', '--prefix', 'demo-'],
    { encoding: 'utf8' },
  );
  expect(stdout).toContain(`sam local start-api -t `);
  expect(stdout).toContain(`--env-vars ${out}`);
  const written = JSON.parse(readFileSync(out, 'utf8')) as Record<string, Record<string, string>>;
  const publish = written[s.functionId('publish-app')]!;
  expect(publish).toMatchObject({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000', TABLE_SOURCES: 'demo-sources', TABLE_RATE_LIMITS: 'demo-rate-limits' });
  expect(publish.TABLE_DEVICES).toBeUndefined();
  rmSync(dir, { recursive: true, force: true });
});

test('a missing assembly is a clear error, not a stack trace', () => {
  let stderr = '';
  try {
    execFileSync(process.execPath, ['--import', 'tsx', 'bin/sam-env.ts', '--assembly', join(tmpdir(), 'no-such-cdk-out')], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    stderr = String((error as { stderr: string }).stderr);
  }
  expect(stderr).toMatch(/^Error: .*no-such-cdk-out/);
});
