/**
 * `npm run cost`'s arithmetic against figures worked out by hand from AWS's prices (aws-prices.ts).
 */
import { PRICES } from './aws-prices';
import { month, requestCost, type RequestUsage } from './cost-model';

// A feed read as the bench might measure it: 2 read units, 1 write unit (its rate-limit counter), 10.2 ms on a
// 512 MB function, 1,000 bytes of logs.
const feedRead: RequestUsage = { rcu: 2, wcu: 1, ms: 10.2, memoryMb: 512, logBytes: 1000 };

test('one request: Lambda (billed per started millisecond), API Gateway, DynamoDB, logs', () => {
  const cost = requestCost(feedRead, PRICES);
  // 0.5 GB × 0.011 s × $0.0000133334 = $0.0000000733337, plus $0.20 per million requests.
  expect(cost.lambda).toBeCloseTo(0.0000000733337 + 0.0000002, 13);
  expect(cost.apiGateway).toBeCloseTo(0.0000035, 13);
  // 2 × $0.125 + 1 × $0.625 per million units.
  expect(cost.dynamoDb).toBeCloseTo(0.000000875, 13);
  // 1,000 bytes = 0.000001 GB × ($0.50 ingested + $0.03 stored a month).
  expect(cost.logs).toBeCloseTo(0.00000053, 13);
  expect(cost.kms).toBe(0);
  // Per million requests: $5.18.
  expect(cost.total * 1e6).toBeCloseTo(5.1783337, 6);
});

test('KMS requests and a 1,024 MB function', () => {
  const cost = requestCost({ rcu: 0, wcu: 0, ms: 100, memoryMb: 1024, logBytes: 0, kmsRequests: 1 }, PRICES);
  // 1 GB × 0.1 s × $0.0000133334 + $0.0000002; one KMS request at $0.03 per 10,000.
  expect(cost.lambda).toBeCloseTo(0.00000133334 + 0.0000002, 13);
  expect(cost.kms).toBeCloseTo(0.000003, 13);
});

test('a cold start is billed as its INIT duration only', () => {
  const m = month([{ name: 'cold', perDay: 96, usage: { rcu: 0, wcu: 0, ms: 146.2, memoryMb: 512, logBytes: 0 }, init: true }], false, PRICES);
  // 2,880 a month × 0.5 GB × 0.147 s × $0.0000133334 = $0.0028226...
  expect(m.lines[0]!.dollars).toBeCloseTo(2880 * 0.5 * 0.147 * 0.0000133334, 10);
});

describe('a month of 1,000 feed reads a day, 100 of which the cache cannot answer', () => {
  const traffic = [{ name: 'feed', perDay: 1000, usage: feedRead, missesPerDayWithCache: 100 }];

  test('cache off: 30,000 requests reach the function, plus the KMS key', () => {
    const m = month(traffic, false, PRICES);
    expect(m.lines).toEqual([{ name: 'feed', requests: 30_000, dollars: expect.closeTo(30_000 * 0.0000051783337, 9) }]);
    expect(m.fixed.map((f) => f.dollars)).toEqual([1]);
    expect(m.total).toBeCloseTo(0.155350011 + 1, 6);
  });

  test('cache on: 3,000 reach the function, 27,000 pay API Gateway alone, and the cache costs $0.02 × 730 hours', () => {
    const m = month(traffic, true, PRICES);
    // 3,000 × $0.0000051783337 + 27,000 × $0.0000035 = $0.015535 + $0.0945.
    expect(m.lines[0]!.dollars).toBeCloseTo(0.015535001 + 0.0945, 8);
    expect(m.fixed.find((f) => f.name.startsWith('stage cache'))!.dollars).toBeCloseTo(14.6, 10);
    expect(m.total).toBeCloseTo(0.110035001 + 1 + 14.6, 6);
  });
});
