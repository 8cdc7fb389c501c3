/**
 * Info.plist and entitlements come as XML or binary property lists; the maintained `plist` package reads both
 * (`parse` and `parseBinary`), and is never handed more than the caller's cap.
 */
import { parse, parseBinary } from 'plist';
import { InspectionError } from '../../records/ipa-inspection';

const BINARY_MAGIC = Buffer.from('bplist00', 'latin1');

/** The top-level dictionary of a property list, or an `invalid` inspection error naming `what`. */
export function parseDictionary(bytes: Buffer, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    if (bytes.subarray(0, BINARY_MAGIC.length).equals(BINARY_MAGIC)) {
      value = parseBinary(bytes);
    } else {
      value = parse(bytes.toString('utf8'));
    }
  } catch (error) {
    throw new InspectionError('invalid', `${what} is not a readable property list (${(error as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array || value instanceof Date) {
    throw new InspectionError('invalid', `${what} is not a dictionary`);
  }
  return value as Record<string, unknown>;
}
