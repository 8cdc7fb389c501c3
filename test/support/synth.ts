import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { createApp, type CreateAppOptions } from '../../infra/cdk/create-app';
import type { AppSourceStack } from '../../infra/cdk/app-stack';
import type { CfnTemplate } from '../../infra/tooling/cloud-assembly';
import { tableKeys, type TableKey } from '../../shared/db/tables';

export interface Synthesized {
  stack: AppSourceStack;
  template: Template;
  json: CfnTemplate;
  outdir: string;
  /** Logical id of a table in the template. */
  tableId(key: TableKey): string;
  /** Logical id → table key, for reading grants and environment references. */
  tableByLogicalId: Map<string, TableKey>;
  functionId(name: string): string;
}

const outdirs: string[] = [];
// Registered when a test file imports this module: its assemblies go when the file is done.
afterAll(() => {
  for (const dir of outdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Synthesizes the stack in-process into a temporary assembly; bundling stays off unless asked for. */
export function synth(options: CreateAppOptions = {}): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'appsource-cdk-'));
  outdirs.push(outdir);
  const { stack } = createApp({ bundling: false, outdir, ...options });
  const template = Template.fromStack(stack);
  const logicalId = (element: CfnElement) => stack.resolve(Stack.of(element).getLogicalId(element)) as string;
  const tableId = (key: TableKey) => logicalId(stack.tables.byKey[key].node.defaultChild as CfnElement);
  const tableByLogicalId = new Map(tableKeys.map((key) => [tableId(key), key]));
  const functionId = (name: string) => {
    const found = stack.functions.find(({ fn }) => fn.name === name);
    if (!found) throw new Error(`no function ${name}`);
    return logicalId(found.handler.node.defaultChild as CfnElement);
  };
  return { stack, template, json: template.toJSON() as CfnTemplate, outdir, tableId, tableByLogicalId, functionId };
}

type Intrinsic = string | { Ref?: string; 'Fn::GetAtt'?: [string, string]; 'Fn::Join'?: [string, Intrinsic[]] };

/** The logical id an intrinsic points at (Ref, GetAtt, or the first reference inside a Join). */
export function referencedId(value: unknown): string | undefined {
  const v = value as Intrinsic;
  if (typeof v !== 'object' || v === null) return undefined;
  // Pseudo parameters (AWS::Partition, AWS::Region) are not resources.
  if (v.Ref) return v.Ref.startsWith('AWS::') ? undefined : v.Ref;
  if (v['Fn::GetAtt']) return v['Fn::GetAtt'][0];
  if (v['Fn::Join']) return v['Fn::Join'][1].map(referencedId).find((id) => id !== undefined);
  return undefined;
}

export interface Grant {
  actions: string[];
  /** Logical id of the resource the statement names, plus the literal suffix (`/index/*`) if any. */
  resources: { id: string | undefined; suffix: string }[];
}

/** Every allow statement in the policies attached to a function's role. */
export function functionGrants(json: CfnTemplate, functionLogicalId: string): Grant[] {
  const fn = json.Resources[functionLogicalId]!;
  const roleId = referencedId(fn.Properties!.Role);
  const grants: Grant[] = [];
  type Document = { Statement: { Effect: string; Action: string | string[]; Resource: unknown }[] };
  // The role's own inline policies, and any policy resource attached to it (CDK's default policy and the
  // customer-managed overflow policies it splits off past IAM's inline size limit), should one appear.
  const documents: Document[] = ((json.Resources[roleId!]?.Properties?.Policies ?? []) as { PolicyDocument: Document }[]).map((p) => p.PolicyDocument);
  for (const resource of Object.values(json.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy' && resource.Type !== 'AWS::IAM::ManagedPolicy') continue;
    const roles = ((resource.Properties!.Roles ?? []) as unknown[]).map(referencedId);
    if (roles.includes(roleId)) documents.push(resource.Properties!.PolicyDocument as Document);
  }
  for (const { Statement: statements } of documents) {
    for (const statement of statements) {
      expect(statement.Effect).toBe('Allow');
      const list = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
      grants.push({
        actions: ([] as string[]).concat(statement.Action),
        resources: list.map((r) => {
          const join = (r as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
          const suffix = join ? join[1].filter((part): part is string => typeof part === 'string').join('') : '';
          return { id: referencedId(r), suffix };
        }),
      });
    }
  }
  return grants;
}
