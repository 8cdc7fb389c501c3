/**
 * The add's waits for Apple (its wait for each answer and its second look after a lost registration answer)
 * are configuration, so the tests of late and lost answers run in seconds. Production keeps 8 s and 3 s: a
 * deployed function and `npm start` never set the variables (the stack's environment is checked exactly, per
 * function, in test/infra/stack-template.test.ts), so they get the defaults shown here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appleAddWaits, config } from '../../shared/config';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VARIABLES = ['APPLE_ADD_WAIT_MS', 'APPLE_ADD_RECHECK_MS'];

afterEach(() => {
  for (const name of VARIABLES) delete process.env[name];
});

test('unset, the add waits 8 s for each answer of Apple and looks again 3 s after a lost registration', () => {
  for (const name of VARIABLES) delete process.env[name];
  expect(appleAddWaits()).toEqual({ waitMs: 8_000, recheckMs: 3_000 });
  process.env.APPLE_ADD_WAIT_MS = '';
  expect(appleAddWaits().waitMs).toBe(8_000);
});

test('set, the values are read (as the late- and lost-answer tests set them)', () => {
  process.env.APPLE_ADD_WAIT_MS = '1000';
  process.env.APPLE_ADD_RECHECK_MS = '0';
  expect(appleAddWaits()).toEqual({ waitMs: 1_000, recheckMs: 0 });
});

test.each([
  ['APPLE_ADD_WAIT_MS', '0'],
  ['APPLE_ADD_WAIT_MS', '8s'],
  ['APPLE_ADD_RECHECK_MS', '-1'],
  ['APPLE_ADD_RECHECK_MS', '2.5'],
])('%s=%s stops the function instead of waiting some other time', (name, value) => {
  process.env[name] = value;
  expect(() => appleAddWaits()).toThrow(name);
  // The rest of the configuration is read apart, so a function that never adds does not stop on them.
  expect(() => config()).not.toThrow();
});

test('no deployed or local-runtime code sets the variables: neither the stack nor npm start', () => {
  const files = ['bin', 'infra', 'functions', 'shared'].flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') || file.endsWith('.js'))
      .map((file) => posix.join(folder, file.split('\\').join('/'))),
  );
  // An assignment (`process.env.X ??= …`, `X = …`) or an object member (`X: …`, as a function's environment).
  const setting = new RegExp(`\\b(${VARIABLES.join('|')})['"]?\\s*(\\?\\?=|=(?!=)|:)`);
  expect(files.filter((file) => setting.test(readFileSync(join(ROOT, file), 'utf8')))).toEqual([]);
  expect(setting.test("process.env.APPLE_ADD_WAIT_MS ??= '1000'") && setting.test("environment: { APPLE_ADD_RECHECK_MS: '0' }")).toBe(true);
  expect(files).toContain('shared/config.ts');
});
