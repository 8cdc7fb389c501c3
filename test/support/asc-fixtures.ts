// Small helpers for tests that talk to the App Store Connect simulator.
import { randomBytes } from 'node:crypto';
import type { AscCredentials } from '../../shared/apple/asc-jwt';
import { AppleApiError } from '../../shared/apple/asc-errors';
import type { SimulatedTeam } from '../../infra/asc-simulator/server';

export function credentialsOf(team: SimulatedTeam): AscCredentials {
  return { baseUrl: team.baseUrl, issuerId: team.issuerId, keyId: team.keyId, privateKeyPem: team.privateKeyPem };
}

/** A random UDID of a modern device (25 characters) or of an older one (40 hex characters). */
export function newUdid(length: 25 | 40 = 25): string {
  return length === 25
    ? `00008030-${randomBytes(8).toString('hex').toUpperCase()}`
    : randomBytes(20).toString('hex');
}

/** The AppleApiError a call rejects with; anything else (or success) fails the test. */
export async function appleFailure(promise: Promise<unknown>): Promise<AppleApiError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof AppleApiError)) throw new Error(`Expected an AppleApiError, got ${String(error)}`);
  return error;
}
