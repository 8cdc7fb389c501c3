/**
 * A tenant's capture keys, made on first use: an HMAC secret that signs profile challenges (only this service
 * checks them) and an ES256 key pair whose private half signs tickets and whose public half resellers use to
 * verify them offline. Both secrets are sealed at rest like Apple account secrets.
 */
import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { getCaptureKeys, putCaptureKeysOnce, type StoredCaptureKeys } from '../../db/repositories/udid-capture-repository';
import { open, seal } from '../../secrets/envelope-encryption';

export const TICKET_ALG = 'ES256';

export interface SigningKeys {
  challengeSecret: Uint8Array;
  ticketKey: CryptoKey;
  ticketKid: string;
  ticketPublicJwk: JWK;
}

const opened = new Map<string, Promise<SigningKeys>>();

async function createKeys(now: number): Promise<StoredCaptureKeys> {
  const { privateKey, publicKey } = await generateKeyPair(TICKET_ALG, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    challenge_secret: await seal(randomBytes(32).toString('base64')),
    ticket_private: await seal(await exportJWK(privateKey)),
    ticket_public_jwk: { ...publicJwk, kid, alg: TICKET_ALG, use: 'sig' },
    ticket_kid: kid,
    created_at: now,
  };
}

async function openKeys(stored: StoredCaptureKeys): Promise<SigningKeys> {
  const privateJwk = await open<JWK>(stored.ticket_private);
  return {
    challengeSecret: Buffer.from(await open<string>(stored.challenge_secret), 'base64'),
    ticketKey: (await importJWK(privateJwk, TICKET_ALG)) as CryptoKey,
    ticketKid: stored.ticket_kid,
    ticketPublicJwk: stored.ticket_public_jwk as JWK,
  };
}

async function loadOrCreate(tenantId: string, now: number): Promise<SigningKeys> {
  let stored = await getCaptureKeys(tenantId);
  if (!stored) {
    const fresh = await createKeys(now);
    // Two first requests at once: the second keeps the keys the first stored.
    stored = (await putCaptureKeysOnce(tenantId, fresh)) ? fresh : await getCaptureKeys(tenantId);
    if (!stored) throw new Error('capture keys vanished after a conditional put');
  }
  return openKeys(stored);
}

/** The tenant's signing keys, opened once per container. */
export function signingKeys(tenantId: string, now: number): Promise<SigningKeys> {
  let keys = opened.get(tenantId);
  if (!keys) {
    keys = loadOrCreate(tenantId, now);
    opened.set(tenantId, keys);
    keys.catch(() => opened.delete(tenantId));
  }
  return keys;
}

/** The public JWK tickets verify against; undefined while the tenant has never signed one. */
export async function ticketPublicJwk(tenantId: string): Promise<JWK | undefined> {
  return (await getCaptureKeys(tenantId))?.ticket_public_jwk as JWK | undefined;
}
