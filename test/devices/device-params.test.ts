import { parseAction } from '../../functions/device-status/schema';
import { parseOptionalSelector, parseSelector } from '../../shared/validation/device-selector';
import { DomainError } from '../../shared/domain/errors';

function failure(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

describe('device parameters', () => {
  test('kid and udid are trimmed; numbers become text; empty counts as absent', () => {
    expect(parseSelector({ kid: '  k1 ', udid: '' })).toEqual({ kid: 'k1', udid: undefined });
    expect(parseSelector({ kid: 12345 })).toEqual({ kid: '12345', udid: undefined });
    expect(parseOptionalSelector({ kid: ' ', udid: null })).toBeUndefined();
    expect(parseOptionalSelector({ token: 'x' })).toBeUndefined();
  });

  test('neither → device_selector_missing; a non-text or overlong value names itself', () => {
    expect(failure(() => parseSelector({}))).toMatchObject({ kind: 'device_selector_missing', reason: 'device_selector_missing' });
    expect(failure(() => parseSelector({ kid: { a: 1 }, udid: 'x'.repeat(129) }))).toMatchObject({
      kind: 'device_selector_missing',
      reason: 'device_selector_invalid',
      fields: ['kid', 'udid'],
    });
    expect(failure(() => parseSelector({ udid: true }))).toMatchObject({ fields: ['udid'] });
    // 128 code points is the limit, counted as characters, not UTF-16 units
    expect(parseSelector({ udid: '😀'.repeat(128) }).udid).toHaveLength(256);
  });

  test('action: enable, disable, toggle in any case; absent or empty is toggle; anything else is invalid_action', () => {
    expect(parseAction(undefined)).toBe('toggle');
    expect(parseAction(null)).toBe('toggle');
    expect(parseAction('')).toBe('toggle');
    expect(parseAction(' Enable ')).toBe('enable');
    expect(parseAction('DISABLE')).toBe('disable');
    expect(parseAction('toggle')).toBe('toggle');
    for (const bad of ['on', 'off', '1', 1, true, { action: 'enable' }, 'enable disable']) {
      expect(failure(() => parseAction(bad))).toMatchObject({ kind: 'invalid_action', reason: 'invalid_action', fields: ['action'] });
    }
  });
});
