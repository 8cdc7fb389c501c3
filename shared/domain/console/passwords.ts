/**
 * Passwords, stored only as a memory-hard hash: scrypt, Node's own (no native package to build into every
 * Lambda bundle). N = 2^15, r = 8, p = 1 takes 32 MiB and about 50–100 ms of one core per hash: memory enough
 * that a GPU or ASIC guesses in parallel only at that cost each, time short enough for a 128 MiB+ Lambda and
 * a person waiting on the sign-in button, and online guessing is bounded by the per-account and per-IP
 * limits anyway. Each hash names its parameters, so a later, costlier setting verifies old hashes as they are.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** The cost new hashes are made with (and an unknown login spends). */
export const HASH_COST = { N: 2 ** 15, r: 8, p: 1 } as const;
export type HashCost = { N: number; r: number; p: number };
const KEY_BYTES = 32;

let cost: HashCost = HASH_COST;

/**
 * Test hook (as `setClock` is): the cost new hashes are made at, until the function it returns puts the previous
 * one back. Verification reads each hash's own parameters, so every rule around a password (counts, locks,
 * sessions, invitations) runs the same at any cost; the tests of those rules hash cheaply, and
 * `test/console-auth/passwords.test.ts` holds the product's cost.
 */
export function setHashCost(next: HashCost): () => void {
  const previous = cost;
  cost = next;
  return () => {
    cost = previous;
  };
}

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  // maxmem: 128·N·r bytes plus headroom; Node's default (32 MiB) is just short of N = 2^15.
  const maxmem = 256 * (options.N ?? cost.N) * (options.r ?? cost.r);
  return new Promise((resolve, reject) => scryptCallback(password.normalize('NFC'), salt, KEY_BYTES, { ...options, maxmem }, (err, key) => (err ? reject(err) : resolve(key))));
}

/** `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', Math.log2(cost.N), cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Whether `password` is the one `stored` was made from, compared in constant time. With no stored hash (an
 * unknown login, a user without a password) it still spends one hash's time, so the answer's timing does not
 * tell which logins exist.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  const [scheme, logN, r, p, salt, hash] = parts;
  if (parts.length !== 6 || scheme !== 'scrypt' || !salt || !hash) {
    await scrypt(password, randomBytes(16), cost);
    return false;
  }
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), { N: 2 ** Number(logN), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** What a password must be: 10 to 200 characters (counted as a person counts them). */
export const PASSWORD_LENGTH = { min: 10, max: 200 } as const;
