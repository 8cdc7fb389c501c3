/**
 * `cdk synth` as the CDK CLI runs it: cdk.json's app command with the CLI's environment (CDK_OUTDIR,
 * CDK_CONTEXT_JSON), no AWS credentials and no network. Bundling is skipped here; bundles.test.ts bundles.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTemplate, stackTemplatePath, templateFunctions } from '../../infra/tooling/cloud-assembly';
import { authorizers, routes, scheduledJobs, streamConsumers } from '../../shared/routes';

const cdkJson = JSON.parse(readFileSync('cdk.json', 'utf8')) as { app: string; context: Record<string, unknown> };

const outdirs: string[] = [];
afterAll(() => outdirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function runApp(context: Record<string, unknown>): { outdir: string; stderr: string } {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-app-'));
  outdirs.push(outdir);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    CDK_OUTDIR: outdir,
    CDK_CONTEXT_JSON: JSON.stringify({ ...cdkJson.context, 'aws:cdk:bundling-stacks': [], ...context }),
  };
  try {
    execSync(cdkJson.app, { env, encoding: 'utf8', stdio: 'pipe' });
    return { outdir, stderr: '' };
  } catch (error) {
    return { outdir, stderr: String((error as { stderr: string }).stderr) };
  }
}

test('cdk.json keeps tables by default', () => {
  expect(cdkJson.context.removalPolicy).toBe('retain');
});

test("cdk.json's app synthesizes the stack without AWS credentials, with the metadata sam local needs", () => {
  const { outdir, stderr } = runApp({});
  expect(stderr).toBe('');
  const templatePath = stackTemplatePath(outdir, 'AppSource');
  expect(existsSync(templatePath)).toBe(true);
  const fns = templateFunctions(readTemplate(templatePath));
  expect(fns.map((f) => f.name).sort()).toEqual([...routes, ...scheduledJobs, ...authorizers, ...streamConsumers].map((e) => e.function).sort());
  for (const fn of fns) expect(fn.assetPath).toBeDefined();
});

test('a bad context flag stops the synth and says which flag and what is allowed', () => {
  const { stderr } = runApp({ logRetentionDays: 31 });
  expect(stderr).toContain('Invalid CDK context: -c logRetentionDays: must be one of CloudWatch');
});

test('stackName renames the stack', () => {
  const { outdir, stderr } = runApp({ stackName: 'AppSourceTest' });
  expect(stderr).toBe('');
  expect(existsSync(stackTemplatePath(outdir, 'AppSourceTest'))).toBe(true);
});
