import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ScheduledJobDefinition } from '../../../shared/routes';
import { jobMaxEventAgeSeconds } from '../job-timing';
import { FailureQueue } from './failure-queue';

/** What lands in the failure queue, and what its alarm tells the operator. */
const FAILED_RUNS = {
  why: 'This queue is itself the dead-letter queue of the scheduled jobs (Lambda on-failure destination and EventBridge target DLQ); nothing consumes it but the operator.',
  alarmDescription: 'A scheduled job run (or a batch of download lines the reservation worker counts) failed or was never delivered: read the message in the failure queue, then the job’s streams in the functions’ log group. A download batch can be sent to the function again: it counts once.',
};

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
    const failures = new FailureQueue(this, 'FailedRuns', { removalPolicy: props.removalPolicy, ...FAILED_RUNS });
    this.failedRuns = failures.queue;
    this.failedRunsAlarm = failures.alarm;
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
  }
}
