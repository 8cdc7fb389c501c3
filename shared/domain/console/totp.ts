/**
 * The second factor: TOTP (RFC 6238, 6 digits, 30-second steps, SHA-1: what every authenticator app reads
 * from the otpauth:// URI), with the `otpauth` package. A code is accepted one step either side of now (a
 * phone's clock a little off); which step it matched is what the replay guard spends.
 */
import { Secret, TOTP } from 'otpauth';

const PERIOD = 30;

function totp(secret: string, label = 'console', issuer = 'App source'): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });
}

/** A new random secret (160 bits), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/…` URI an authenticator app scans (as a QR code) or imports. */
export function totpUri(secret: string, label: string, issuer: string): string {
  return totp(secret, label, issuer).toString();
}

/** The time step a 6-digit `code` is valid for within ±1 step of `nowMs`; undefined when it is none of them. */
export function matchingStep(secret: string, code: string, nowMs: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totp(secret).validate({ token: code, timestamp: nowMs, window: 1 });
  return delta === null ? undefined : Math.floor(nowMs / 1000 / PERIOD) + delta;
}
