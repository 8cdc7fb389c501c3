/**
 * The checks every synth runs: cdk-nag's AwsSolutions pack (no finding left, every acknowledgment says why)
 * and CDK's validation against CloudFormation's resource schemas.
 *
 * The default stack is the shared synth (`test/support/shared-synth.ts`): cdk-nag's pack runs over its live
 * construct tree when it is synthesized, and the findings and the tree's acknowledgments are stored beside its
 * template, so this file builds no stack of its own. That a schema violation stops the synth is shown on a
 * small stack in `stack-template.test.ts`, where CDK is already loaded and warm.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedSynth } from '../support/shared-synth';

const s = await sharedSynth();

test('AwsSolutions checks report no violation', () => {
  expect(s.nag.violations.map((v) => `${v.ruleName}: ${v.constructPaths.join(', ')}`)).toEqual([]);
  expect(s.nag.success).toBe(true);
});

test('every acknowledged rule carries a written justification', () => {
  const acks = s.acknowledgments;
  expect(acks.length).toBeGreaterThan(0);
  for (const ack of acks) {
    expect(ack.id).toMatch(/AwsSolutions-/);
    expect(ack.reason.length).toBeGreaterThan(40);
  }
});

test("CloudFormation's resource schemas accept the template", () => {
  // The shared synth is createApp's app, which validates on every synth and throws on a finding (so the cache
  // holds no template that failed); CDK's report of that synth, written into its assembly, lists no finding.
  const report = JSON.parse(readFileSync(join(s.outdir, 'validation-report.json'), 'utf8')) as { pluginReports: unknown[] };
  expect(report.pluginReports).toEqual([]);
});
