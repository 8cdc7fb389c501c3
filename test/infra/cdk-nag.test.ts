/**
 * The checks every synth runs: cdk-nag's AwsSolutions pack (no finding left, every acknowledgment says why)
 * and CDK's validation against CloudFormation's resource schemas.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validations, type CfnResource } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { createApp } from '../../infra/cdk/create-app';
import { synth } from '../support/synth';

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

// One synth for both reads of the stack: a synth is the costly part of this file.
let stack: ReturnType<typeof synth>['stack'];
beforeAll(() => {
  stack = synth().stack;
});

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
  const outdir = mkdtempSync(join(tmpdir(), 'appsource-schema-'));
  try {
    const valid = createApp({ bundling: false, outdir: join(outdir, 'valid') });
    expect(() => valid.app.synth()).not.toThrow();
    const broken = createApp({ bundling: false, outdir: join(outdir, 'broken') });
    (broken.stack.functions[0]!.handler.node.defaultChild as CfnResource).addPropertyOverride('MemorySize', 'lots');
    expect(() => broken.app.synth()).toThrow(/ERROR MemorySize: 'lots' is not of type 'integer' \(CloudFormation Validate\)/);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
});
