/**
 * A reseller connects their own Apple developer account with only an App Store Connect API key: the service
 * checks the key, makes a distribution certificate from a key pair and CSR of its own, finds or makes the
 * wildcard bundle id the ad hoc profiles use, and stores the account in the reseller's private pool with the
 * key and the identity sealed. Whatever it made at Apple is removed again when the connection cannot finish,
 * so a failed connection leaves nothing half-made (and spends none of the team's certificates).
 */
import { X509Certificate } from 'node:crypto';
import { AscClient } from '../../apple/asc-client';
import { AscTokenCache } from '../../apple/asc-jwt';
import type { AscCertificate } from '../../apple/asc-resources';
import { config } from '../../config';
import { listOwnedAccounts } from '../../db/repositories/account-repository';
import { logger } from '../../logger';
import { APPLE_BASE_URL, type Account, type AccountMode } from '../../records/account';
import type { Actor } from '../../records/source';
import { DomainError } from '../errors';
import { addAccount } from './account-service';
import { appleRefusal } from './apple-refusals';
import { certificateIsForKey, identityP12, newSigningRequest } from './signing-identity';

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
  /** When Apple renews the membership (and lets the team reset its device list); defaults to the certificate's expiry. */
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
 * A distribution certificate for a new key of ours. A lost answer may still have made one: it is looked up by
 * its public key and revoked, so the team's cap is not spent on a certificate nobody holds.
 */
export async function createIdentity(client: AscClient, commonName: string, current: AscCertificate[]): Promise<{ certificate: AscCertificate; privateKeyPem: string }> {
  const request = await newSigningRequest(commonName);
  try {
    const certificate = await client.createDistributionCertificate(request.csrPem);
    if (!certificate.certificateContent) throw new DomainError('unavailable', 'apple_unavailable');
    return { certificate, privateKeyPem: request.privateKeyPem };
  } catch (error) {
    await revokeOrphan(client, request.privateKeyPem);
    throw appleRefusal(error, { certificates: current });
  }
}

async function revokeOrphan(client: AscClient, privateKeyPem: string): Promise<void> {
  try {
    for (const certificate of await client.listDistributionCertificates()) {
      if (certificate.certificateContent && certificateIsForKey(certificate.certificateContent, privateKeyPem)) await client.revokeCertificate(certificate.id);
    }
  } catch (error) {
    logger.warn('Could not check for a certificate a lost answer may have made', { error: error as Error });
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
  const baseUrl = config().appleApiBaseUrl;
  const key = { issuerId: input.issuerId, keyId: input.keyId, privateKeyPem: input.privateKeyPem };
  const client = clientForKey(key, baseUrl);
  let current: AscCertificate[];
  try {
    current = await client.listDistributionCertificates();
  } catch (error) {
    throw appleRefusal(error);
  }
  const { certificate, privateKeyPem } = await createIdentity(client, `App Source ${actor.userId}`, current);
  const made: { certificateId?: string; bundleIdId?: string } = { certificateId: certificate.id };
  try {
    const teamId = teamIdOf(certificate.certificateContent!);
    const already = (await listOwnedAccounts(actor.userId)).find((a) => a.teamId === teamId && a.status !== 'retired');
    if (already) throw new DomainError('conflict', 'apple_account_exists', { params: { account_id: already.accountId }, data: { account_id: already.accountId } });
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
        expiresAt: input.membershipRenewsAt ?? certificateExpiresAt,
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
