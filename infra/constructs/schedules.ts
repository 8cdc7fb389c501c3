import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { ScheduledJobDefinition } from '../../shared/routes';

/** One EventBridge rule per scheduled job, invoking its function every `everyMinutes`. */
export class Schedules extends Construct {
  readonly rules: Rule[] = [];

  constructor(scope: Construct, id: string, props: { jobs: readonly { job: ScheduledJobDefinition; handler: IFunction }[] }) {
    super(scope, id);
    for (const { job, handler } of props.jobs) {
      this.rules.push(
        new Rule(this, job.function, {
          description: job.description,
          schedule: Schedule.rate(Duration.minutes(job.everyMinutes)),
          // A missed run is not retried: the next run, minutes later, picks up the same work.
          targets: [new LambdaFunction(handler, { retryAttempts: 0 })],
        }),
      );
    }
  }
}
