import { Duration, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/**
 * Where work that failed for good is described for the operator (a scheduled run, a stream batch), kept 14
 * days, encrypted, with an alarm that sounds as soon as one message is in it. It is itself a dead-letter queue,
 * so it has none of its own (`why` says what lands in it, for the cdk-nag acknowledgement).
 */
export class FailureQueue extends Construct {
  readonly queue: Queue;
  readonly alarm: Alarm;

  constructor(scope: Construct, id: string, props: { removalPolicy: RemovalPolicy; why: string; alarmDescription: string }) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14), removalPolicy: props.removalPolicy });
    Validations.of(this.queue).acknowledge({ id: 'AwsSolutions-SQS3', reason: props.why });
    this.alarm = new Alarm(this, 'Alarm', {
      alarmDescription: props.alarmDescription,
      metric: this.queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
