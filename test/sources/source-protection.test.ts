import { matchOperation } from '../../shared/http/middlewares/operation';
import { applicableIpLimits } from '../../shared/http/middlewares/rate-limit';
import { newUnlockCode, normalizeUnlockCode, unlockCodeView } from '../../shared/records/protection';
import { parseReport } from '../../functions/source-feed/schema';
import { routes, routeFor } from '../../shared/routes';

const UDID25 = '00008101-000A1B2C3D4E5F60';
const UDID40 = 'a'.repeat(40);
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('route operations', () => {
  const feed = routeFor('source-feed');

  test('a code makes an unlock whatever the method; another POST a report; the rest reads', () => {
    const name = (method: string, params: Record<string, unknown>) => matchOperation(feed.operations!, method, params)?.name;
    expect(name('GET', { udid: UDID25, code: 'X' })).toBe('unlock');
    expect(name('POST', { code: '' })).toBe('unlock');
    expect(name('post', { value: 'x' })).toBe('report');
    expect(name('POST', {})).toBe('report');
    expect(name('GET', { udid: UDID25 })).toBe('read');
    // an inherited property is not a parameter
    expect(name('GET', Object.create({ code: 'x' }) as Record<string, unknown>)).toBe('read');
  });

  test('each operation is limited by its own budget only', () => {
    const limits = feed.ipLimits!;
    expect(applicableIpLimits(limits, 'read').map((l) => [l.limit, l.window])).toEqual([[600, 'minute']]);
    // Reports and unlocks: per IP, and a ceiling per source whoever sends them (rotating addresses gain nothing).
    expect(applicableIpLimits(limits, 'report').map((l) => [l.limit, l.window, l.everyone ?? false])).toEqual([
      [60, 'minute', false],
      [120, 'minute', true],
    ]);
    expect(applicableIpLimits(limits, 'unlock')).toEqual([
      { operation: 'unlock', limit: 120, window: 'minute', perPathParam: 'source_id', everyone: true },
      { operation: 'unlock', limit: 10, window: '10 minutes', perPathParam: 'source_id', counts: 'failures' },
    ]);
    expect(applicableIpLimits([{ limit: 5, window: 'minute' }], undefined)).toHaveLength(1);
  });

  test('every limit names an operation its route declares', () => {
    for (const route of routes) {
      const declared = new Set((('operations' in route ? route.operations : undefined) ?? []).map((o) => o.name));
      for (const limit of ('ipLimits' in route ? route.ipLimits : undefined) ?? []) {
        if ('operation' in limit) expect(declared.has(limit.operation)).toBe(true);
      }
    }
  });
});

describe('unlock codes', () => {
  test('12 characters of an alphabet without look-alikes, all different', () => {
    const codes = Array.from({ length: 2000 }, newUnlockCode);
    for (const code of codes) expect(code).toMatch(/^[A-HJKMNP-Z2-9]{12}$/);
    expect(new Set(codes).size).toBe(codes.length);
  });

  test('typed codes are trimmed and upper-cased; anything that cannot be a code is refused without a lookup', () => {
    expect(normalizeUnlockCode('  abcd2345efgh ')).toBe('ABCD2345EFGH');
    for (const bad of ['', 'abc', 'a'.repeat(33), 'AB CD', 'ABCD#', 42, null, ['ABCDEFGH']]) expect(normalizeUnlockCode(bad)).toBeUndefined();
  });

  test('the owner view: null until used', () => {
    expect(unlockCodeView({ code: 'C', days: 3, created_at: 1 })).toEqual({ code: 'C', days: 3, state: 'unused', udid: null, used_at: null, ends_at: null });
    expect(unlockCodeView({ code: 'C', days: 3, created_at: 1, udid: UDID25, used_at: 10, ends_at: 10 + 3 * 86_400 })).toMatchObject({ state: 'used', used_at: 10 });
  });
});

describe('misuse report values', () => {
  test('standard or URL-safe base64, padded or not; either part may be empty or unusable', () => {
    expect(parseReport(b64(`${UDID25}|${UDID40}`))).toEqual({ adder: UDID25, cracker: UDID40.toUpperCase() });
    expect(parseReport(b64(`|${UDID40}`))).toEqual({ adder: undefined, cracker: UDID40.toUpperCase() });
    expect(parseReport(b64(`${UDID25}|junk`))).toEqual({ adder: UDID25, cracker: undefined });
    const urlSafe = Buffer.from(`${UDID25}|??>>`).toString('base64url');
    expect(parseReport(urlSafe)).toEqual({ adder: UDID25, cracker: undefined });
    expect(parseReport(` ${b64(`${UDID25}|`)} `)?.adder).toBe(UDID25);
  });

  test('no usable part, no separator, too many, not text, not base64: malformed (the feed then answers 40002 naming value)', () => {
    for (const bad of [b64('|'), b64('junk|junk'), b64(UDID25), b64(`${UDID25}|${UDID25}|${UDID25}`), '', 'é', '****', 'A'.repeat(513), 7, null, {}]) {
      expect(parseReport(bad)).toBeUndefined();
    }
  });
});
