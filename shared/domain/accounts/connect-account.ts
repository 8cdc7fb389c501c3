/**
 * A reseller connects their own Apple developer account with only an App Store Connect API key: the service
 * checks the key, makes a distribution certificate from a key pair and CSR of its own, finds or makes the
 * wildcard bundle id the ad hoc profiles use, and stores the account in the reseller's private pool with the
 * key and the identity sealed. Whatever it made at Apple is removed again when the connection cannot finish,
 * so a failed connection leaves nothing half-made (and spends none of the team's certificates); a certificate
 * whose answer was lost is found by its key and used, never made twice.
 */
import { X509Certificate } from 'node:crypto';
import { AscClient } from '../../apple/asc-client';
import { AppleApiError } from '../../apple/asc-errors';
import { AscTokenCache } from '../../apple/asc-jwt';
import type { AscCertificate } from '../../apple/asc-resources';
import { config } from '../../config';
import { listAllAccounts, listOwnedAccounts } from '../../db/repositories/account-repository';
import { logger } from '../../logger';
import { APPLE_BASE_URL, type Account, type AccountMode } from '../../records/account';
import type { Actor } from '../../records/source';
import { DomainError } from '../errors';
import { addAccount } from './account-service';
import { checkMembershipDate } from './membership-date';
import { appleRefusal } from './apple-refusals';
import { identityP12, newSigningRequest, type SigningRequest } from './signing-identity';
import { certificateForKey } from './certificate-key';

export interface ApiKeyInput {
  issuerId: string;
  keyId: string;
  /** The `.p8` (PEM). */
  privateKeyPem: string;
}

export interface ConnectInput extends ApiKeyInput {
  mode?: AccountMode | undefined;
  weight?: number | undefined;
  tiers?: number[] | undefined;
  /** When Apple renews the membership (and lets the team reset its device list); unknown (0) when not given. */
  membershipRenewsAt?: number | undefined;
}

/** The identifier of the bundle id ad hoc profiles are made for: a wildcard App ID signs any app. */
export const WILDCARD_IDENTIFIER = '*';

/** A client for a key not stored anywhere yet: its own token cache, short timeouts (a request waits on it). */
export function clientForKey(key: ApiKeyInput, baseUrl = config().appleApiBaseUrl): AscClient {
  return new AscClient({ baseUrl, ...key }, { tokens: new AscTokenCache(), timeoutMs: 8_000, maxAttempts: 2, retryBaseDelayMs: 200 });
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** The team id Apple writes in a distribution certificate's subject (its OU). */
export function teamIdOf(certificateContent: string): string {
  const subject = new X509Certificate(Buffer.from(certificateContent, 'base64')).subject;
  return /^OU=(.+)$/m.exec(subject)?.[1] ?? '';
}

/**
 * A new distribution certificate and its private key, for a connection or a renewal: the key pair is made while
 * Apple lists the team's certificates (which also proves the key works), so the request follows at once.
 */
export async function newIdentity(client: AscClient, userId: string, signing: Promise<SigningRequest> = newSigningRequest(`App Source ${userId}`)): Promise<{ certificate: AscCertificate; privateKeyPem: string }> {
  let current: AscCertificate[];
  try {
    current = await client.listDistributionCertificates();
  } catch (error) {
    await signing.catch(() => undefined);
    throw appleRefusal(error);
  }
  return createIdentity(client, await signing, current);
}

/**
 * A distribution certificate for a new key of ours (`request`, made while the caller's first call to Apple
 * ran). The request is not repeated blindly: when no answer came, Apple may have made the certificate, so it is
 * looked for by its public key and taken if there; only when it is not there is the request sent once more.
 */
async function createIdentity(client: AscClient, request: SigningRequest, current: AscCertificate[]): Promise<{ certificate: AscCertificate; privateKeyPem: string }> {
  const { privateKeyPem } = request;
  for (let attempt = 1; ; attempt++) {
    try {
      const certificate = await client.createDistributionCertificate(request.csrPem);
      if (!certificate.certificateContent) throw new DomainError('unavailable', 'apple_unavailable');
      return { certificate, privateKeyPem };
    } catch (error) {
      const unanswered = error instanceof AppleApiError && error.kind === 'unavailable' && error.status === undefined;
      if (!unanswered) throw appleRefusal(error, { certificates: current });
      const made = await findOurs(client, privateKeyPem);
      if (made) return { certificate: made, privateKeyPem };
      if (made === null || attempt >= 2) throw appleRefusal(error);
    }
  }
}

/** Our certificate if Apple lists it; undefined if not; null when Apple cannot be asked (then it may exist). */
async function findOurs(client: AscClient, privateKeyPem: string): Promise<AscCertificate | undefined | null> {
  try {
    return await certificateForKey(client, privateKeyPem);
  } catch (error) {
    logger.error('A certificate request got no answer and Apple cannot be asked whether it made it', { error: error as Error });
    return null;
  }
}

/** Undoes what a connection made at Apple; logged (never thrown) when Apple cannot be reached for it. */
async function undo(client: AscClient, made: { certificateId?: string; bundleIdId?: string }): Promise<void> {
  try {
    if (made.certificateId) await client.revokeCertificate(made.certificateId);
    if (made.bundleIdId) await client.deleteBundleId(made.bundleIdId);
  } catch (error) {
    logger.error('A failed connection left something at Apple', { ...made, error: error as Error });
  }
}

export async function connectAccount(actor: Actor, input: ConnectInput, now: number): Promise<Account> {
  // Checked before Apple is asked: a bad date makes nothing.
  if (input.membershipRenewsAt !== undefined) checkMembershipDate(input.membershipRenewsAt, now);
  const baseUrl = config().appleApiBaseUrl;
  const key = { issuerId: input.issuerId, keyId: input.keyId, privateKeyPem: input.privateKeyPem };
  const client = clientForKey(key, baseUrl);
  const { certificate, privateKeyPem } = await newIdentity(client, actor.userId);
  const made: { certificateId?: string; bundleIdId?: string } = { certificateId: certificate.id };
  try {
    const teamId = teamIdOf(certificate.certificateContent!);
    const already = (await listOwnedAccounts(actor.userId)).find((a) => a.teamId === teamId && a.status !== 'retired');
    if (already) throw new DomainError('conflict', 'apple_account_exists', { params: { account_id: already.accountId }, data: { account_id: already.accountId } });
    // A team is counted in one place only: two records of one team would each believe in Apple's 100 slots.
    // Connections are rare and accounts few, so the whole list is read; who holds the team is not said.
    if ((await listAllAccounts()).some((a) => a.teamId === teamId && a.status !== 'retired')) throw new DomainError('conflict', 'apple_team_in_use');
    let bundleId = await client.findBundleId(WILDCARD_IDENTIFIER);
    if (!bundleId) {
      bundleId = await client.createBundleId({ name: 'Ad hoc distribution (wildcard)', identifier: WILDCARD_IDENTIFIER });
      made.bundleIdId = bundleId.id;
    }
    const certificateExpiresAt = seconds(certificate.expirationDate);
    return await addAccount(
      {
        pool: 'private',
        userId: actor.userId,
        tenantId: actor.tenantId,
        mode: input.mode ?? 'instant',
        weight: input.weight,
        tiers: input.tiers,
        expiresAt: input.membershipRenewsAt ?? 0,
        simulated: baseUrl !== APPLE_BASE_URL,
        teamId,
        baseUrl,
        issuerId: key.issuerId,
        keyId: key.keyId,
        certificateId: certificate.id,
        bundleIdId: bundleId.id,
        connected: true,
        certificateExpiresAt,
        secrets: { privateKeyPem: key.privateKeyPem, ...identityP12(privateKeyPem, certificate.certificateContent!) },
      },
      now,
    );
  } catch (error) {
    await undo(client, made);
    if (error instanceof DomainError) throw error;
    const refusal = appleRefusal(error);
    throw refusal instanceof DomainError && refusal.reason === 'apple_unavailable' ? new DomainError('unavailable', 'apple_connect_failed', { cause: error }) : refusal;
  }
}
