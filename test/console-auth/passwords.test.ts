/**
 * Passwords' hashes as stored: scrypt at the product's cost (N = 2^15, r = 8, p = 1), salted, verified by the
 * parameters each hash names — which is why the console's other tests may hash cheaply
 * (test/support/password-cost.ts) and still prove every rule around a password.
 */
import { HASH_COST, hashPassword, setHashCost, verifyPassword } from '../../shared/domain/console/passwords';

test('a hash names scrypt at the product cost and a salt of its own; it verifies its password and no other', async () => {
  expect(HASH_COST).toEqual({ N: 2 ** 15, r: 8, p: 1 });
  const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
  expect(a).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  expect(a.split('$')[4]).not.toBe(b.split('$')[4]);
  expect(await verifyPassword('correct horse battery', a)).toBe(true);
  expect(await verifyPassword('correct horse batterY', a)).toBe(false);
  // The same password in another Unicode form is the same password.
  expect(await verifyPassword('café au lait!', await hashPassword('cafe\u0301 au lait!'))).toBe(true);
});

test('a hash made at another cost verifies by its own parameters; no stored hash verifies nothing', async () => {
  const restore = setHashCost({ N: 2 ** 10, r: 8, p: 1 });
  let cheap: string;
  try {
    cheap = await hashPassword('correct horse battery');
  } finally {
    restore();
  }
  expect(cheap).toMatch(/^scrypt\$10\$8\$1\$/);
  // Back at the product's cost, the cheaper hash still verifies, and new hashes are made at the product's cost.
  expect(await verifyPassword('correct horse battery', cheap)).toBe(true);
  expect(await verifyPassword('wrong horse battery', cheap)).toBe(false);
  expect(await hashPassword('x'.repeat(10))).toMatch(/^scrypt\$15\$/);
  for (const stored of [undefined, '', 'plain text', 'bcrypt$10$8$1$salt$hash']) expect(await verifyPassword('correct horse battery', stored)).toBe(false);
});
