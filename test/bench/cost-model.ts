/**
 * The arithmetic of `npm run cost`, free of I/O: what one request of a route costs deployed, from what the
 * bench measured of it (capacity units DynamoDB reported, milliseconds) and the function's memory, at the
 * prices of aws-prices.ts; and what a reseller's month costs at a traffic profile, with the feed's stage cache
 * on and off.
 */
import type { Prices } from './aws-prices';

/** What one request of a route takes, as measured (or assumed, for the log bytes). */
export interface RequestUsage {
  /** DynamoDB read and write request units (on-demand: what ReturnConsumedCapacity reports). */
  rcu: number;
  wcu: number;
  /** Billed duration: Lambda rounds up to the millisecond. */
  ms: number;
  memoryMb: number;
  /** CloudWatch log bytes the request writes (the function's lines and API Gateway's access log line). */
  logBytes: number;
  /** KMS requests (decrypting an account's secrets). */
  kmsRequests?: number;
}

export interface RequestCost {
  lambda: number;
  apiGateway: number;
  dynamoDb: number;
  logs: number;
  kms: number;
  total: number;
}

/** Dollars for one request that reaches its function. */
export function requestCost(u: RequestUsage, p: Prices): RequestCost {
  const lambda = (u.memoryMb / 1024) * (Math.ceil(u.ms) / 1000) * p.lambda.perGbSecond + p.lambda.perMillionRequests / 1e6;
  const apiGateway = p.apiGateway.perMillionRequests / 1e6;
  const dynamoDb = (u.rcu * p.dynamoDb.perMillionReadRequestUnits + u.wcu * p.dynamoDb.perMillionWriteRequestUnits) / 1e6;
  const logs = (u.logBytes / 1e9) * (p.cloudWatch.logsPerGbIngested + p.cloudWatch.logsPerGbMonthStored);
  const kms = ((u.kmsRequests ?? 0) * p.kms.perTenThousandRequests) / 1e4;
  return { lambda, apiGateway, dynamoDb, logs, kms, total: lambda + apiGateway + dynamoDb + logs + kms };
}

/** Dollars for one request the stage cache answers: API Gateway's request price, and nothing behind it. */
export function cachedRequestCost(p: Prices): number {
  return p.apiGateway.perMillionRequests / 1e6;
}

/** A kind of request in a month's traffic. */
export interface TrafficLine {
  name: string;
  perDay: number;
  usage: RequestUsage;
  /**
   * With the stage cache on, how many of the day's requests reach the function at most (the cache answers
   * the rest); undefined: the cache does not hold this kind of request.
   */
  missesPerDayWithCache?: number;
  /** A cold start's INIT phase: billed as Lambda GB-seconds only (no request of its own to API Gateway or Lambda). */
  init?: true;
}

/** Dollars for one cold start's INIT phase of `ms` at `memoryMb` (Lambda bills INIT like a duration). */
export function initCost(u: Pick<RequestUsage, 'ms' | 'memoryMb'>, p: Prices): number {
  return (u.memoryMb / 1024) * (Math.ceil(u.ms) / 1000) * p.lambda.perGbSecond;
}

export interface MonthLine {
  name: string;
  requests: number;
  dollars: number;
}

export interface Month {
  lines: MonthLine[];
  /** The stage cache's hours, the KMS key. */
  fixed: MonthLine[];
  total: number;
}

export const DAYS_PER_MONTH = 30;
export const HOURS_PER_MONTH = 730;

/** A month of `traffic`, with the stage cache on or off. */
export function month(traffic: readonly TrafficLine[], cacheOn: boolean, p: Prices): Month {
  const lines = traffic.map((t) => {
    const requests = t.perDay * DAYS_PER_MONTH;
    if (t.init) return { name: t.name, requests, dollars: requests * initCost(t.usage, p) };
    const reaching = cacheOn && t.missesPerDayWithCache !== undefined ? Math.min(t.perDay, t.missesPerDayWithCache) * DAYS_PER_MONTH : requests;
    const dollars = reaching * requestCost(t.usage, p).total + (requests - reaching) * cachedRequestCost(p);
    return { name: t.name, requests, dollars };
  });
  const fixed: MonthLine[] = [{ name: 'KMS key (account secrets)', requests: 0, dollars: p.kms.perKeyMonth }];
  if (cacheOn) fixed.push({ name: 'stage cache 0.5 GB', requests: 0, dollars: p.apiGateway.cachePerHourHalfGb * HOURS_PER_MONTH });
  const total = [...lines, ...fixed].reduce((sum, l) => sum + l.dollars, 0);
  return { lines, fixed, total };
}
