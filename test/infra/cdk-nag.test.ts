/**
 * The checks every synth runs: cdk-nag's AwsSolutions pack (no finding left, every acknowledgment says why)
 * and CDK's validation against CloudFormation's resource schemas.
 *
 * One app serves the whole file (building and synthesizing the stack is its costly part): synthesized once, its
 * live construct tree read by the cdk-nag tests, then broken on purpose and synthesized again for the schema test,
 * which therefore runs last.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validations, type App, type CfnResource } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import type { AppSourceStack } from '../../infra/cdk/app-stack';
import { createApp } from '../../infra/cdk/create-app';

function acknowledgments(root: IConstruct): { path: string; id: string; reason: string }[] {
  const found: { path: string; id: string; reason: string }[] = [];
  const walk = (c: IConstruct) => {
    for (const entry of c.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, unknown>)) found.push({ path: c.node.path, id, reason: String(reason) });
    }
    c.node.children.forEach(walk);
  };
  walk(root);
  return found;
}

const outdir = mkdtempSync(join(tmpdir(), 'appsource-schema-'));
let app: App;
let stack: AppSourceStack;
/** What the first synth threw, if anything: the schema test asserts it threw nothing. */
let firstSynth: { error: unknown } | undefined;
beforeAll(() => {
  ({ app, stack } = createApp({ bundling: false, outdir }));
  try {
    app.synth();
  } catch (error) {
    firstSynth = { error };
  }
}, 300_000); // building and synthesizing the whole stack: a minute or more on a busy machine
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

test('AwsSolutions checks report no violation', () => {
  const report = new AwsSolutionsChecks().validateScope(stack);
  expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  expect(report.success).toBe(true);
});

test('every acknowledged rule carries a written justification', () => {
  const acks = acknowledgments(stack);
  expect(acks.length).toBeGreaterThan(0);
  for (const ack of acks) {
    expect(ack.id).toMatch(/AwsSolutions-/);
    expect(ack.reason.length).toBeGreaterThan(40);
  }
});

test("CloudFormation's resource schemas accept the template, and a schema violation stops the synth", () => {
  expect(firstSynth).toBeUndefined();
  // The same app, made invalid: `force` makes CDK synthesize it again rather than hand back the first assembly.
  (stack.functions[0]!.handler.node.defaultChild as CfnResource).addPropertyOverride('MemorySize', 'lots');
  expect(() => app.synth({ force: true })).toThrow(/ERROR MemorySize: 'lots' is not of type 'integer' \(CloudFormation Validate\)/);
});
