import { Duration, Stack, Validations } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  LogQueryWidget,
  MathExpression,
  Metric,
  SingleValueWidget,
  TextWidget,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, MetricFilter, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { metricNames, SERVICE_DIMENSION } from '../../../shared/observability/metric-names';
import type { RouteDefinition, ScheduledJobDefinition } from '../../../shared/routes';

/** Metrics the stack derives from the API's access log (metric filters), beside the functions' own. */
export const accessLogMetricNames = {
  requests: 'ApiRequests',
  serverErrors: 'Api5xx',
  gatewayThrottled: 'GatewayThrottled',
} as const;

/** Alarm thresholds that are not operator settings. */
export const ALARM_5XX_RATE_PERCENT = 5;
export const RESERVATION_MAX_AGE_ALARM_SECONDS = 72 * 3600;
/**
 * Paths watched by one 5xx alarm. A metric-math alarm may retrieve at most 10 metrics (a hard CloudWatch
 * limit; its `Metrics` hold at most 20 queries, of which at most 10 metrics and 10 expressions) and each path
 * brings two (requests, 5xx): 5 paths fill the 10 metrics and use 6 expressions (5 rates and their MAX).
 */
export const PATHS_PER_5XX_ALARM = 5;

export interface MonitoringProps {
  /** The stack's name: the namespace of the functions' metrics and of the access-log metrics. */
  namespace: string;
  serviceName: string;
  accessLogs: ILogGroup;
  /** The log group all functions write to (one stream set per function, named after it). */
  functionLogs: ILogGroup;
  apiName: string;
  stageName: string;
  routes: readonly RouteDefinition[];
  jobs: readonly ScheduledJobDefinition[];
  functions: readonly { name: string; handler: IFunction }[];
  failedRuns: IQueue;
  freeSlotsThreshold: number;
  alarmEmail: string | undefined;
}

/**
 * Alarms, their notification topic and one dashboard. Everything is derived from the route table and the
 * scheduled jobs, so a new route gets its 5xx alarm and a new job its dashboard lines without a change here.
 * Alarms that other constructs create (the failure queue's) notify the same topic.
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { namespace } = props;
    const service = { [SERVICE_DIMENSION]: props.serviceName };
    const own = (metricName: string, statistic: string, period: Duration, dimensionsMap: Record<string, string> = service) =>
      new Metric({ namespace, metricName, dimensionsMap, statistic, period });
    const search = (metricName: string, dimension: string, statistic: string, label: string) =>
      new MathExpression({
        expression: `SEARCH('{${namespace},${SERVICE_DIMENSION},${dimension}} MetricName="${metricName}"', '${statistic}', 300)`,
        label,
        period: Duration.minutes(5),
      });

    // Per route: requests and 5xx answers counted from the access log (API Gateway's per-method metrics
    // would need detailed metrics, billed per method and metric).
    const fromAccessLog = (metricName: string, pattern: string, dimensions?: Record<string, string>) =>
      new MetricFilter(this, metricName, {
        logGroup: props.accessLogs,
        filterPattern: FilterPattern.literal(pattern),
        metricNamespace: namespace,
        metricName,
        metricValue: '1',
        ...(dimensions ? { dimensions } : {}),
      });
    fromAccessLog(accessLogMetricNames.requests, '{ $.status > 0 }', { resourcePath: '$.resourcePath' });
    fromAccessLog(accessLogMetricNames.serverErrors, '{ $.status >= 500 }', { resourcePath: '$.resourcePath' });
    fromAccessLog(accessLogMetricNames.gatewayThrottled, '{ $.responseType = "THROTTLED" }');

    // Metric ids must be unique within a graph, so each route's pair is numbered.
    const errorRate = (route: RouteDefinition, index = 0, label = `${route.function} 5xx %`) =>
      new MathExpression({
        expression: `100 * FILL(errors${index}, 0) / requests${index}`,
        usingMetrics: {
          [`errors${index}`]: own(accessLogMetricNames.serverErrors, 'Sum', Duration.minutes(5), { resourcePath: route.path }),
          [`requests${index}`]: own(accessLogMetricNames.requests, 'Sum', Duration.minutes(5), { resourcePath: route.path }),
        },
        label,
        period: Duration.minutes(5),
      });
    const alarm = (alarmId: string, description: string, metric: IMetric, threshold: number, comparisonOperator: ComparisonOperator, periods = { evaluation: 1, toAlarm: 1 }) => {
      const created = new Alarm(this, alarmId, {
        alarmDescription: description,
        metric,
        threshold,
        comparisonOperator,
        evaluationPeriods: periods.evaluation,
        datapointsToAlarm: periods.toAlarm,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      this.alarms.push(created);
      return created;
    };

    // Functions that serve different methods of one resource path share its access-log counts, so the unit
    // an alarm watches is a path. One alarm per path took ~40 of the stack's 500 resources, so paths share
    // alarms: sorted by path and cut into groups, each alarm watching the highest 5xx rate of its group. A
    // new path takes its place in path order (later paths move along) without a change here.
    const byPath = new Map<string, RouteDefinition[]>();
    for (const route of props.routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
    const pathLabel = (onPath: RouteDefinition[]) => `${onPath.map((r) => r.function).join(' + ')} 5xx %`;
    const sortedPaths = [...byPath.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (let start = 0, group = 1; start < sortedPaths.length; start += PATHS_PER_5XX_ALARM, group++) {
      const members = sortedPaths.slice(start, start + PATHS_PER_5XX_ALARM);
      const rates = members.map(([, onPath], index) => errorRate(onPath[0]!, index, pathLabel(onPath)));
      // MAX over one series would be its maximum value (a number), not a series: a lone path is watched as is.
      const watched =
        rates.length === 1
          ? rates[0]!
          : new MathExpression({
              expression: `MAX([${rates.map((_, index) => `rate${index}`).join(', ')}])`,
              usingMetrics: Object.fromEntries(rates.map((rate, index) => [`rate${index}`, rate])),
              label: 'highest 5xx % of the group',
              period: Duration.minutes(5),
            });
      const covered = members.map(([path, onPath]) => `${onPath.map((r) => r.function).join(' and ')} (${path})`).join('; ');
      alarm(
        `Api5xx-${group}`,
        `A route of this group answered more than ${ALARM_5XX_RATE_PERCENT}% of its requests with 5xx in two of three 5-minute periods (the dashboard's "5xx % per route" graph shows which): read its function's streams in the functions' log group. Routes: ${covered}.`,
        watched,
        ALARM_5XX_RATE_PERCENT,
        ComparisonOperator.GREATER_THAN_THRESHOLD,
        { evaluation: 3, toAlarm: 2 },
      );
    }

    alarm(
      'FreeSlotsLow',
      `An Apple account that still sells has fewer than ${props.freeSlotsThreshold} free device slots in a class (reported by the hourly revocation sweep): add an account or raise its weight's neighbours.`,
      own(metricNames.freeSlots, 'Minimum', Duration.hours(1)),
      props.freeSlotsThreshold,
      ComparisonOperator.LESS_THAN_THRESHOLD,
    );
    alarm(
      'ReservationTooOld',
      'A review reservation has been pending for more than 72 hours (Apple normally decides within 72 h); it fails and is refunded at 30 days.',
      own(metricNames.reservationAge, 'Maximum', Duration.hours(1)),
      RESERVATION_MAX_AGE_ALARM_SECONDS,
      ComparisonOperator.GREATER_THAN_THRESHOLD,
    );
    alarm(
      'LambdaThrottled',
      'Lambda refused invocations in this account and region for lack of concurrency: check `aws lambda get-account-settings` (a new account may allow only 10) and request a higher quota.',
      new Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', statistic: 'Sum', period: Duration.minutes(5) }),
      1,
      ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    );

    this.topic = new Topic(this, 'AlarmTopic', { displayName: `${namespace} alarms`, enforceSSL: true });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason: 'Alarm notifications carry alarm names and states only, no customer data; a KMS-encrypted topic would need a key policy for CloudWatch and cost a key.',
    });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    // Every alarm of the stack notifies the topic, including those other constructs created.
    for (const construct of Stack.of(this).node.findAll()) {
      if (construct instanceof Alarm) {
        construct.addAlarmAction(new SnsAction(this.topic));
        construct.addOkAction(new SnsAction(this.topic));
      }
    }

    const api = { ApiName: props.apiName, Stage: props.stageName };
    const apiMetric = (metricName: string, statistic = 'Sum') => new Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap: api, statistic, period: Duration.minutes(5) });
    const lambdaMetric = (metricName: string, handler: IFunction, statistic = 'Sum') => handler.metric(metricName, { statistic, period: Duration.minutes(5) });
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: namespace });
    this.dashboard.addWidgets(
      new TextWidget({ markdown: `# ${namespace}\nAdds, Apple, accounts and jobs (the functions' own metrics), the API, and Lambda concurrency.`, width: 24, height: 2 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Adds delivered / refunded',
        left: [search(metricNames.addsDelivered, 'mode', 'Sum', 'delivered'), search(metricNames.addsRefunded, 'reason', 'Sum', 'refunded')],
        width: 8,
      }),
      new GraphWidget({ title: 'Adds refused, by reason', left: [search(metricNames.addsRefused, 'reason', 'Sum', 'refused')], width: 8 }),
      new GraphWidget({ title: 'Apple errors, by kind', left: [search(metricNames.appleErrors, 'kind', 'Sum', 'apple')], width: 8 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Free slots per account and class',
        left: [
          new MathExpression({
            expression: `SEARCH('{${namespace},${SERVICE_DIMENSION},account,class} MetricName="${metricNames.freeSlots}"', 'Minimum', 3600)`,
            label: 'free',
            period: Duration.hours(1),
          }),
        ],
        leftAnnotations: [{ value: props.freeSlotsThreshold, label: 'alarm' }],
        width: 8,
      }),
      new GraphWidget({
        title: 'Oldest pending reservation (hours)',
        left: [new MathExpression({ expression: 'age / 3600', usingMetrics: { age: own(metricNames.reservationAge, 'Maximum', Duration.hours(1)) }, label: 'hours', period: Duration.hours(1) })],
        leftAnnotations: [{ value: 72, label: '72 h' }],
        width: 8,
      }),
      new GraphWidget({
        title: 'Scheduled jobs: runs, failures, skipped (overlap)',
        left: [metricNames.jobRuns, metricNames.jobFailures, metricNames.jobSkipped].map((name) => search(name, 'job', 'Sum', name)),
        right: [props.failedRuns.metricApproximateNumberOfMessagesVisible({ label: 'failure queue', statistic: 'Maximum', period: Duration.minutes(5) })],
        width: 8,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'API: requests, 4xx, 5xx (API Gateway), gateway 429s (THROTTLED)',
        left: [apiMetric('Count'), apiMetric('4XXError'), apiMetric('5XXError')],
        right: [own(accessLogMetricNames.gatewayThrottled, 'Sum', Duration.minutes(5), {})],
        width: 12,
      }),
      new GraphWidget({ title: '5xx % per route', left: [...byPath.values()].map((onPath, index) => errorRate(onPath[0]!, index, pathLabel(onPath))), width: 12 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Lambda: concurrent executions (account) and throttles',
        left: [new Metric({ namespace: 'AWS/Lambda', metricName: 'ConcurrentExecutions', statistic: 'Maximum', period: Duration.minutes(1) })],
        right: [new Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', statistic: 'Sum', period: Duration.minutes(5) })],
        width: 12,
      }),
      new GraphWidget({ title: 'Lambda errors per function', left: props.functions.map(({ name, handler }) => lambdaMetric('Errors', handler).with({ label: name })), width: 12 }),
    );
    // The functions share one log group; Powertools writes `function_name` on every line and Lambda writes its
    // own lines (timeouts, crashes) to streams named after the function, so both kinds are read here.
    this.dashboard.addWidgets(
      new LogQueryWidget({
        title: 'Latest errors, by function (the functions\' log group)',
        logGroupNames: [props.functionLogs.logGroupName],
        queryLines: [
          'fields @timestamp, coalesce(function_name, @logStream) as fn, coalesce(message, @message) as text',
          'filter level = "ERROR" or @message like /Task timed out|Runtime\\.|ERROR\\s+Invoke Error/',
          'sort @timestamp desc',
          'limit 50',
        ],
        width: 24,
        height: 6,
      }),
    );
    this.dashboard.addWidgets(
      new SingleValueWidget({ title: 'Jobs', metrics: props.jobs.map((job) => own(metricNames.jobRuns, 'Sum', Duration.hours(1), { ...service, job: job.function }).with({ label: `${job.function} runs/h` })), width: 24 }),
    );
  }
}
