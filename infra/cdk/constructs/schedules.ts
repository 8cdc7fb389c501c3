import { Duration, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ScheduledJobDefinition } from '../../../shared/routes';
import { jobMaxEventAgeSeconds } from '../job-timing';

/**
 * One EventBridge rule per scheduled job, invoking its function every `everyMinutes`, asynchronously. Nobody
 * retries a run, neither EventBridge nor Lambda: the next run, one interval later, picks up the same work,
 * and a retry would only race it. A run that fails, an event EventBridge cannot deliver, and an event that
 * waited longer than one interval all land in one failure queue, which an alarm watches.
 */
export class Schedules extends Construct {
  readonly rules: Rule[] = [];
  readonly failedRuns: Queue;
  readonly failedRunsAlarm: Alarm;

  constructor(scope: Construct, id: string, props: { jobs: readonly { job: ScheduledJobDefinition; handler: IFunction }[]; removalPolicy: RemovalPolicy }) {
    super(scope, id);
    this.failedRuns = new Queue(this, 'FailedRuns', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this.failedRuns).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the scheduled jobs (Lambda on-failure destination and EventBridge target DLQ); nothing consumes it but the operator.',
    });
    for (const { job, handler } of props.jobs) {
      const maxEventAge = Duration.seconds(jobMaxEventAgeSeconds(job));
      handler.configureAsyncInvoke({ retryAttempts: 0, maxEventAge, onFailure: new SqsDestination(this.failedRuns) });
      this.rules.push(
        new Rule(this, job.function, {
          description: job.description,
          schedule: Schedule.rate(Duration.minutes(job.everyMinutes)),
          targets: [new LambdaFunction(handler, { retryAttempts: 0, maxEventAge, deadLetterQueue: this.failedRuns })],
        }),
      );
    }
    this.failedRunsAlarm = new Alarm(this, 'FailedRunsAlarm', {
      alarmDescription: 'A scheduled job run failed or was never delivered: read the message in the failure queue, then the job’s log group.',
      metric: this.failedRuns.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
