import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { envFromOutputs } from '../cdk/stack-outputs';
import { CliError } from './cli-types';

type DescribeStacks = (stack: string) => Promise<{ OutputKey?: string | undefined; OutputValue?: string | undefined }[]>;

/** Reads a deployed stack's outputs with the default AWS credential chain (profile, SSO, environment). */
const describeWithCloudFormation: DescribeStacks = async (stack) => {
  const client = new CloudFormationClient({});
  try {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stack }));
    return Stacks?.[0]?.Outputs ?? [];
  } finally {
    client.destroy();
  }
};

/**
 * Points the operator CLI at a deployed stack: its outputs name the tables, the region and the secrets key,
 * and become the same `TABLE_*`, `AWS_REGION` and `ACCOUNT_SECRETS_KEY_ARN` variables the functions read.
 * DYNAMODB_ENDPOINT is cleared so nothing goes to a local DynamoDB by mistake.
 */
export async function loadStackTables(stack: string, describe: DescribeStacks = describeWithCloudFormation): Promise<Record<string, string>> {
  let outputs: Awaited<ReturnType<DescribeStacks>>;
  try {
    outputs = await describe(stack);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError(`--stack ${stack}: cannot read the stack's outputs (${message}); check the stack name, --region and your AWS credentials`);
  }
  let env: Record<string, string>;
  try {
    env = envFromOutputs(outputs);
  } catch (error) {
    throw new CliError(`--stack ${stack}: ${error instanceof Error ? error.message : String(error)}`);
  }
  Object.assign(process.env, env);
  delete process.env.DYNAMODB_ENDPOINT;
  return env;
}
