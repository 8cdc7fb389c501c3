import { Stack } from 'aws-cdk-lib';
import { PolicyDocument, Role, ServicePrincipal, type AddToPrincipalPolicyResult, type PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

/** The inline policy's name on every function role. */
export const FUNCTION_POLICY_NAME = 'access';

/** IAM's limit on a role's inline policies together (characters, whitespace not counted). */
export const ROLE_INLINE_POLICY_LIMIT = 10_240;

/**
 * What a reference to a resource (a table's ARN, the key's) may grow to once deployed: the template holds
 * `{"Fn::GetAtt":[…]}`, IAM stores the full ARN. Generous, so the estimate below errs on the safe side.
 */
const DEPLOYED_ARN_CHARS = 160;

/** The policy's size as IAM will count it, each unresolved reference taken at a deployed ARN's length. */
export function estimatedPolicyChars(resolved: unknown): number {
  const visit = (value: unknown): number => {
    if (typeof value === 'string') return value.length + 2;
    if (typeof value !== 'object' || value === null) return String(value).length;
    if (Array.isArray(value)) return 2 + value.reduce((sum: number, v) => sum + visit(v) + 1, 0);
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 1 && (entries[0]![0] === 'Ref' || entries[0]![0].startsWith('Fn::'))) return DEPLOYED_ARN_CHARS;
    return 2 + entries.reduce((sum, [k, v]) => sum + k.length + 3 + visit(v) + 1, 0);
  };
  return visit(resolved);
}

/**
 * A function's execution role that holds its grants in one inline policy of the role itself, instead of the
 * separate `AWS::IAM::Policy` CDK attaches for grants (and the overflow managed policies it splits off a large
 * one). The grants are the same statements, one role per function as before, so least privilege is unchanged;
 * the stack saves one to three resources per function. The document is minimized (statements that differ only
 * in their actions or only in their resources are merged, which never widens them), and a synth stops if it
 * could pass IAM's inline limit.
 *
 * The function also waits for nothing: an inline policy exists as soon as the role does, where a separate
 * policy resource is a second step the function must depend on.
 */
export class FunctionRole extends Role {
  private readonly document: PolicyDocument;

  constructor(scope: Construct, id: string, description: string, document = new PolicyDocument({ minimize: true })) {
    super(scope, id, { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description, inlinePolicies: { [FUNCTION_POLICY_NAME]: document } });
    this.document = document;
    this.node.addValidation({
      validate: () => {
        const chars = estimatedPolicyChars(Stack.of(this).resolve(this.document));
        return chars > ROLE_INLINE_POLICY_LIMIT
          ? [`${this.node.path}: its inline policy may reach ${chars} characters once deployed, past IAM's ${ROLE_INLINE_POLICY_LIMIT} per role; the function touches too many tables for one role`]
          : [];
      },
    });
  }

  /** Every grant (tables, log group, key, failure queue, stream) lands in the role's own inline policy. */
  override addToPrincipalPolicy(statement: PolicyStatement): AddToPrincipalPolicyResult {
    this.document.addStatements(statement);
    // The statement is in place once the role is: whatever depends on the grant depends on the role.
    return { statementAdded: true, policyDependable: this };
  }
}

