import { createHash, randomBytes } from 'node:crypto';

/** The shape of every id the service issues or imports (sources, apps, news): short and URL-safe. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A random lowercase id such as `u_k3j9x0c2m1qz`: short enough to type, 60+ bits of entropy. */
export function randomId(prefix: string, length = 12): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return `${prefix}${id}`;
}

/**
 * The same id every time for the same `seed` (an import's row), shaped like `randomId`: re-running an import
 * finds the rows it already wrote by key.
 */
export function stableId(prefix: string, seed: string, length = 12): string {
  const bytes = createHash('sha256').update(seed).digest().subarray(0, length);
  let id = '';
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return `${prefix}${id}`;
}
