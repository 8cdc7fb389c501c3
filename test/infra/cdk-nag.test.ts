/** cdk-nag's AwsSolutions pack on the whole app: no finding left, and every acknowledgment says why. */
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { synth } from './support/synth';

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

test('AwsSolutions checks report no violation', () => {
  const { stack } = synth();
  const report = new AwsSolutionsChecks().validateScope(stack);
  expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  expect(report.success).toBe(true);
});

test('every acknowledged rule carries a written justification', () => {
  const { stack } = synth();
  const acks = acknowledgments(stack);
  expect(acks.length).toBeGreaterThan(0);
  for (const ack of acks) {
    expect(ack.id).toMatch(/AwsSolutions-/);
    expect(ack.reason.length).toBeGreaterThan(40);
  }
});
