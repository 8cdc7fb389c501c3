import { Duration, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { TableKey } from '../../../shared/db/tables';
import type { StreamConsumerDefinition } from '../../../shared/routes';
import { FailureQueue } from './failure-queue';

/** How far behind its stream a consumer may fall before the alarm sounds. */
export const STREAM_ITERATOR_AGE_ALARM_SECONDS = 5 * 60;

/** What lands in the failure queue, and what its alarm tells the operator. */
const FAILED_BATCHES = {
  why: 'This queue is itself the on-failure destination of the stream consumers; the records it names are still in the outbox, which the retry job reads.',
  alarmDescription: 'A stream batch failed after its retries: the message names the shard and sequence numbers; the events stay due in the outbox and the retry job delivers them.',
};

/**
 * One event source mapping per stream consumer: only INSERT records reach the function (the dispatcher's own
 * updates would wake it for nothing), batch failures are reported per record (`reportBatchItemFailures`), a
 * failing batch is split to find the bad record (`bisectBatchOnError`), retried a bounded number of times and
 * then described in a failure queue. Alarms: anything in the failure queue, the function's errors, and the
 * stream's iterator age.
 */
export class StreamConsumers extends Construct {
  readonly failedBatches: Queue;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: { consumers: readonly { consumer: StreamConsumerDefinition; handler: IFunction }[]; tables: Record<TableKey, Table>; removalPolicy: RemovalPolicy }) {
    super(scope, id);
    const failures = new FailureQueue(this, 'FailedBatches', { removalPolicy: props.removalPolicy, ...FAILED_BATCHES });
    this.failedBatches = failures.queue;
    this.alarms.push(failures.alarm);
    for (const { consumer, handler } of props.consumers) {
      const table = props.tables[consumer.table];
      if (!table.tableStreamArn) throw new Error(`Table ${consumer.table} has no stream for ${consumer.function}`);
      handler.addEventSource(
        new DynamoEventSource(table, {
          startingPosition: StartingPosition.TRIM_HORIZON,
          batchSize: consumer.batchSize,
          maxBatchingWindow: Duration.seconds(1),
          reportBatchItemFailures: true,
          bisectBatchOnError: true,
          retryAttempts: consumer.retryAttempts,
          maxRecordAge: Duration.hours(1),
          onFailure: new SqsDlq(this.failedBatches),
          filters: [FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT') })],
        }),
      );
      if (handler.role) {
        Validations.of(handler.role).acknowledge({
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason: 'dynamodb:ListStreams has no resource-level permissions, so the stream grant of the event source mapping names *; reading the records (DescribeStream, GetShardIterator, GetRecords) is granted on this table\'s stream alone.',
        });
      }
      this.alarms.push(
        new Alarm(this, `${consumer.function}-errors`, {
          alarmDescription: `${consumer.function} failed on stream batches (DynamoDB or code errors, not receivers' failures): read its streams in the functions' log group.`,
          metric: handler.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
        new Alarm(this, `${consumer.function}-iterator-age`, {
          alarmDescription: `${consumer.function} is falling behind the ${consumer.table} stream.`,
          metric: handler.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' }),
          threshold: STREAM_ITERATOR_AGE_ALARM_SECONDS * 1000,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );
    }
  }
}
