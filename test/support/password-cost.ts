/**
 * Cheap password hashes for a test file: scrypt at N = 2^10 instead of the product's 2^15 (under 5 ms a hash
 * instead of 100–500 ms on this 2-core machine, where every sign-in, set password, invitation and wrong guess
 * makes one). What the tests prove around a password — the answers, the counts and locks, the sessions — does
 * not depend on the cost: a hash names its parameters and is verified by them. The product's cost is held by
 * test/console-auth/passwords.test.ts; a race test runs at it (`atProductCost`), so its window is the real one.
 */
import { HASH_COST, setHashCost } from '../../shared/domain/console/passwords';

export const CHEAP_HASH_COST = { N: 2 ** 10, r: 8, p: 1 };

/** For every test of the file. */
export function cheapPasswordHashes(): void {
  let restore: (() => void) | undefined;
  beforeAll(() => {
    restore = setHashCost(CHEAP_HASH_COST);
  });
  afterAll(() => restore?.());
}

/** Runs `run` with passwords hashed at the product's cost, then puts the file's cost back. */
export async function atProductCost<T>(run: () => Promise<T>): Promise<T> {
  const restore = setHashCost(HASH_COST);
  try {
    return await run();
  } finally {
    restore();
  }
}
