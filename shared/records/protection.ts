/**
 * What protects a source: unlock codes and the UDIDs that used them, the block list, and the misuse monitor.
 * Everything is per source; UDIDs are kept upper-cased, so a UDID matches whatever case a client sends.
 */
import { randomBytes } from 'node:crypto';

export { DAY_SECONDS } from '../clock';

/** Codes per creation request, and how long one may unlock for. */
export const UNLOCK_CODE_LIMITS = { count: { min: 1, max: 100 }, days: { min: 1, max: 3650 } } as const;

export interface UnlockCode {
  code: string;
  days: number;
  created_at: number;
  /** Set once, by the one unlock that used the code. */
  udid?: string;
  used_at?: number;
  ends_at?: number;
}

export type BlockReason = 'adder' | 'cracker' | 'manual';
export type MonitorRole = 'adder' | 'cracker';

export interface BlockEntry {
  udid: string;
  reason: BlockReason;
  added_at: number;
}

export interface MonitorEntry {
  udid: string;
  role: MonitorRole;
  count: number;
  first_seen: number;
  last_seen: number;
}

/** What an attempt to use an unlock code found: it used it, or the code is unknown, or someone holds it. */
export type CodeUse = { used: UnlockCode } | { refused: 'unknown' } | { refused: 'taken'; by: UnlockCode };

/** A page of one list, and whether more entries follow it. */
export interface EntryPage<T> {
  items: T[];
  more: boolean;
}

/** Where a monitor entry sits in its list, in UDID then role order (`<UDID>#<role>`). */
export const monitorPosition = (entry: Pick<MonitorEntry, 'udid' | 'role'>) => `${entry.udid}#${entry.role}`;

/** Where a UDID stands with a source when it reads the feed or follows a link. */
export interface DeviceStanding {
  blocked: boolean;
  /** Unix seconds until which the UDID may download the source's locked apps; 0 when it never unlocked. */
  unlockedUntil: number;
}

export const NO_STANDING: DeviceStanding = { blocked: false, unlockedUntil: 0 };

export const isUnlocked = (standing: DeviceStanding, nowSeconds: number): boolean => standing.unlockedUntil > nowSeconds;

/** Letters and digits a customer cannot confuse when typing a code (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 12;

/** A new code: 12 characters of a 31-letter alphabet, about 59 bits, far beyond what the hourly limit lets anyone try. */
export function newUnlockCode(): string {
  // 248 is the largest multiple of 31 below 256: rejecting the rest keeps every character equally likely.
  let code = '';
  while (code.length < CODE_LENGTH) {
    for (const byte of randomBytes(CODE_LENGTH * 2)) {
      if (byte < 248 && code.length < CODE_LENGTH) code += CODE_ALPHABET[byte % CODE_ALPHABET.length];
    }
  }
  return code;
}

/** A code as a customer typed it: trimmed, any case. Undefined when it cannot be one of ours. */
export function normalizeUnlockCode(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const code = value.trim().toUpperCase();
  return /^[A-Z0-9]{4,32}$/.test(code) ? code : undefined;
}

export type UnlockCodeState = 'unused' | 'used';

/** The owner's view of a code; times in Unix seconds, null until the code is used. */
export function unlockCodeView(code: UnlockCode) {
  const used = code.used_at !== undefined;
  return {
    code: code.code,
    days: code.days,
    state: (used ? 'used' : 'unused') satisfies UnlockCodeState,
    udid: code.udid ?? null,
    used_at: code.used_at ?? null,
    ends_at: code.ends_at ?? null,
  };
}
