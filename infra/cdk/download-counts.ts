/**
 * The deployed path of the per-app download figures (shared/domain/stats/README.md): the download gate prints one
 * JSON line per redirect into the functions' one log group, and a subscription filter on that group hands the
 * gate's lines — and no others — to an existing background function, which sums them per app and day. Two
 * resources (the filter and the invoke permission for CloudWatch Logs, scoped to the group), no new function.
 */
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, SubscriptionFilter, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { LambdaDestination } from 'aws-cdk-lib/aws-logs-destinations';
import { Construct } from 'constructs';
import { DOWNLOAD_FIELD } from '../../shared/observability/download-log';

/**
 * The function the lines go to: the reservation worker already writes the counters table (where the figures
 * live) and tells a subscription's batch from its schedule by the event's shape (functions/reservation-worker).
 */
export const DOWNLOAD_COUNTER_FUNCTION = 'reservation-worker';

/**
 * Only the gate's lines (`{"download":{…,"app":N,…}}`): a JSON pattern on the app id, a number, as the aggregator
 * reads it (a numeric comparison, not `exists`, which CDK writes as a match of the string `"*"`). No other line of
 * the group — the counter's own included — is delivered, so the function is invoked for downloads only.
 */
export const DOWNLOAD_LINES_PATTERN = FilterPattern.numberValue(`$.${DOWNLOAD_FIELD}.app`, '>=', 0);

export class DownloadCounting extends Construct {
  readonly filter: SubscriptionFilter;

  constructor(scope: Construct, id: string, props: { logGroup: ILogGroup; counter: IFunction }) {
    super(scope, id);
    // LambdaDestination adds the permission for logs.amazonaws.com with the group's ARN as its source.
    this.filter = new SubscriptionFilter(this, 'GateLines', { logGroup: props.logGroup, destination: new LambdaDestination(props.counter), filterPattern: DOWNLOAD_LINES_PATTERN });
  }
}
