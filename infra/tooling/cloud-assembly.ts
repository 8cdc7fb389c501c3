/**
 * Reading a synthesized cloud assembly (`cdk.out`): which template belongs to the stack, and which Lambda
 * function in it is which project function with its bundle where.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CfnTemplate {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown>; DeletionPolicy?: string }>;
  Outputs?: Record<string, unknown>;
}

export interface TemplateFunction {
  logicalId: string;
  /** The project function (`functions/<name>`), from the construct path `<stack>/<name>/Function/Resource`. */
  name: string;
  /** The bundle folder, relative to the assembly directory (`aws:asset:path`). */
  assetPath: string | undefined;
  /** Names of the environment variables the template declares for it. */
  environment: string[];
}

/** The template file of a stack in an assembly, from the assembly's manifest. */
export function stackTemplatePath(assemblyDir: string, stackName?: string): string {
  const manifest = JSON.parse(readFileSync(join(assemblyDir, 'manifest.json'), 'utf8')) as {
    artifacts?: Record<string, { type: string; displayName?: string; properties?: { templateFile?: string } }>;
  };
  const stacks = Object.entries(manifest.artifacts ?? {}).filter(([, a]) => a.type === 'aws:cloudformation:stack');
  const match = stackName ? stacks.filter(([id, a]) => id === stackName || a.displayName === stackName) : stacks;
  if (match.length !== 1 || !match[0]![1].properties?.templateFile) {
    const names = stacks.map(([id]) => id).join(', ') || 'none';
    throw new Error(stackName ? `No stack "${stackName}" in ${assemblyDir} (stacks: ${names})` : `Expected one stack in ${assemblyDir}, found: ${names}`);
  }
  return join(assemblyDir, match[0]![1].properties.templateFile);
}

export function readTemplate(path: string): CfnTemplate {
  return JSON.parse(readFileSync(path, 'utf8')) as CfnTemplate;
}

/** The project's Lambda functions in a template (the CDK's own helper functions have other paths). */
export function templateFunctions(template: CfnTemplate): TemplateFunction[] {
  return Object.entries(template.Resources).flatMap(([logicalId, resource]) => {
    if (resource.Type !== 'AWS::Lambda::Function') return [];
    const match = /^[^/]+\/([^/]+)\/Function\/Resource$/.exec(String(resource.Metadata?.['aws:cdk:path'] ?? ''));
    if (!match) return [];
    const variables = ((resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {}) as Record<string, unknown>;
    const assetPath = resource.Metadata?.['aws:asset:path'];
    return [{ logicalId, name: match[1]!, assetPath: typeof assetPath === 'string' ? assetPath : undefined, environment: Object.keys(variables) }];
  });
}
