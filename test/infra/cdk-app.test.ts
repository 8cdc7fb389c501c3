/**
 * `cdk synth` as the CDK CLI runs it: cdk.json's app command with the CLI's environment (CDK_OUTDIR,
 * CDK_CONTEXT_JSON), no AWS credentials and no network. Bundling is skipped here; bundles.test.ts bundles.
 *
 * One CLI run serves every test of the CLI path (the run is a whole synth through tsx, the costly part of this
 * file): it passes a context value (`-c stackName`), so it proves at once that the CLI's context reaches the
 * stack, that the app synthesizes with it, the metadata `sam local` needs and the OpenAPI document it publishes.
 * What needs no run (the defaults, a bad flag's message) is checked in-process.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { createApp } from '../../infra/cdk/create-app';
import { OPENAPI_OUTPUT } from '../../infra/cdk/constructs/openapi-asset';
import { stackConfig } from '../../infra/cdk/stack-config';
import { readTemplate, stackTemplatePath, templateFunctions, type CfnTemplate } from '../../infra/tooling/cloud-assembly';
import { buildOpenApiDocument } from '../../infra/tooling/openapi-document';
import { authorizers, routes, scheduledJobs, streamConsumers } from '../../shared/routes';

const cdkJson = JSON.parse(readFileSync('cdk.json', 'utf8')) as { app: string; context: Record<string, unknown> };
const STACK_NAME = 'AppSourceTest';

let run: { outdir: string; stderr: string };
afterAll(() => rmSync(run.outdir, { recursive: true, force: true }));

function runApp(context: Record<string, unknown>): { outdir: string; stderr: string } {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-app-'));
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

beforeAll(() => {
  run = runApp({ stackName: STACK_NAME });
}, 300_000); // a whole synth through tsx: a minute or more on a busy machine

test('cdk.json keeps tables by default', () => {
  expect(cdkJson.context.removalPolicy).toBe('retain');
});

test("cdk.json's app synthesizes the stack without AWS credentials, with the metadata sam local needs", () => {
  expect(run.stderr).toBe('');
  const templatePath = stackTemplatePath(run.outdir, STACK_NAME);
  expect(existsSync(templatePath)).toBe(true);
  const fns = templateFunctions(readTemplate(templatePath));
  expect(fns.map((f) => f.name).sort()).toEqual([...routes, ...scheduledJobs, ...authorizers, ...streamConsumers].map((e) => e.function).sort());
  for (const fn of fns) expect(fn.assetPath).toBeDefined();
});

test('stackName renames the stack; without it the stack is AppSource', () => {
  expect(run.stderr).toBe('');
  expect(existsSync(stackTemplatePath(run.outdir, STACK_NAME))).toBe(true);
  expect(() => stackTemplatePath(run.outdir, 'AppSource')).toThrow('No stack "AppSource"');
  // The run above shows the template is named for the context's stackName; this is the name with none given.
  expect(stackConfig(new App({ context: {} }).node).stackName).toBe('AppSource');
});

test('a bad context flag stops the synth and says which flag and what is allowed', () => {
  // The check runs before any construct is built, so the in-process app fails as fast as the CLI's would.
  expect(() => createApp({ bundling: false, context: { logRetentionDays: 31 } })).toThrow('Invalid CDK context: -c logRetentionDays: must be one of CloudWatch');
});

test('the OpenAPI document is a stack asset with an S3 URL output', async () => {
  const document = await buildOpenApiDocument({ serverUrl: 'https://{apiId}.execute-api.{region}.amazonaws.com/prod' });
  const json = readTemplate(stackTemplatePath(run.outdir, STACK_NAME)) as CfnTemplate;
  const output = json.Outputs?.[OPENAPI_OUTPUT] as { Value: { 'Fn::Sub': string } } | undefined;
  expect(output?.Value['Fn::Sub']).toMatch(/^s3:\/\/cdk-[a-z0-9]+-assets-\$\{AWS::AccountId\}-\$\{AWS::Region\}\/[0-9a-f]{64}\.json$/);
  const hash = /([0-9a-f]{64})\.json$/.exec(output!.Value['Fn::Sub'])![1]!;
  const manifest = JSON.parse(readFileSync(join(run.outdir, `${STACK_NAME}.assets.json`), 'utf8')) as { files: Record<string, { source: { path: string } }> };
  const published = JSON.parse(readFileSync(join(run.outdir, manifest.files[hash]!.source.path), 'utf8')) as { openapi: string; paths: object };
  expect(published).toEqual(document);
});
