/**
 * Deployment settings read from CDK context (`cdk.json`, or `cdk deploy -c key=value`), validated so a typo
 * stops the synth with a clear message instead of deploying something unintended.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import * as z from 'zod/mini';

// The synth's error names the problem: zod's mini form ships without messages until a locale is configured.
z.config(z.locales.en());

export interface StackConfig {
  stackName: string;
  /** Tables, the KMS key and log groups: kept (retain) or deleted (destroy) with the stack. */
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /**
   * Whether this stack creates API Gateway's account-wide CloudWatch role (one per account and region) or
   * relies on the one the account already has.
   */
  apiGatewayAccountRole: 'create' | 'existing';
  /** API Gateway execution logging on every method. */
  apiLogLevel: 'ERROR' | 'INFO' | 'OFF';
  /** Where alarm notifications are e-mailed (an SNS subscription); none when absent. */
  alarmEmail: string | undefined;
  /** The alarm fires when an account that still sells has fewer free slots than this in some device class. */
  freeSlotsAlarmThreshold: number;
  /** Seconds API Gateway's stage cache holds a feed answer (per key, see feed-cache.ts); 0: no cache at all. */
  feedCacheSeconds: number;
}

const retentionValues = new Set<number>(Object.values(RetentionDays).filter((v): v is number => typeof v === 'number'));

const contextSchema = z.object({
  stackName: z._default(z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, 'must start with a letter and hold only letters, digits and hyphens')), 'AppSource'),
  removalPolicy: z._default(z.enum(['retain', 'destroy']), 'retain'),
  logRetentionDays: z._default(
    z.coerce.number().check(z.refine((n) => retentionValues.has(n), `must be one of CloudWatch's retention periods: ${[...retentionValues].sort((a, b) => a - b).join(', ')}`)),
    30,
  ),
  logLevel: z._default(z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']), 'INFO'),
  apiGatewayAccountRole: z._default(z.enum(['create', 'existing']), 'create'),
  apiLogLevel: z._default(z.enum(['ERROR', 'INFO', 'OFF']), 'ERROR'),
  alarmEmail: z.optional(z.email()),
  freeSlotsAlarmThreshold: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(100)), 10),
  // API Gateway caches for at most an hour.
  feedCacheSeconds: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(3600)), 60),
});

const contextKeys = Object.keys(contextSchema.shape);

export function stackConfig(node: Node): StackConfig {
  const raw = Object.fromEntries(
    contextKeys.map((key) => [key, node.tryGetContext(key) as unknown]).filter(([, v]) => v !== undefined),
  );
  const parsed = contextSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `-c ${String(issue.path[0])}: ${issue.message}`);
    throw new Error(`Invalid CDK context: ${problems.join('; ')}`);
  }
  const { stackName, removalPolicy, logRetentionDays, logLevel, apiGatewayAccountRole, apiLogLevel, alarmEmail, freeSlotsAlarmThreshold, feedCacheSeconds } = parsed.data;
  return {
    stackName,
    removalPolicy: removalPolicy === 'destroy' ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
    logRetention: logRetentionDays as RetentionDays,
    logLevel,
    apiGatewayAccountRole,
    apiLogLevel,
    alarmEmail,
    freeSlotsAlarmThreshold,
    feedCacheSeconds,
  };
}
