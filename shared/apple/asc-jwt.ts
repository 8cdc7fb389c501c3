import { SignJWT, importPKCS8 } from 'jose';

/** One App Store Connect API key. `baseUrl` is per account: Apple for real teams, the simulator for simulated ones. */
export interface AscCredentials {
  baseUrl: string;
  issuerId: string;
  keyId: string;
  /** The `.p8` file: a PKCS#8 PEM EC P-256 key. */
  privateKeyPem: string;
}

export const ASC_AUDIENCE = 'appstoreconnect-v1';
/** Apple refuses tokens whose `exp` is more than 20 minutes after `iat`. */
export const TOKEN_LIFETIME_SECONDS = 20 * 60;
/** Replace a token this close to expiry, so it cannot expire between signing a request and Apple reading it. */
const RENEW_BEFORE_EXPIRY_SECONDS = 60;

type SigningKey = Awaited<ReturnType<typeof importPKCS8>>;

interface CachedToken {
  token: string;
  expiresAt: number;
}

function cacheKey({ issuerId, keyId, privateKeyPem }: AscCredentials): string {
  return `${issuerId}\n${keyId}\n${privateKeyPem}`;
}

/**
 * Signs App Store Connect tokens and reuses each until a minute before it expires: signing is cheap, but one
 * token per request would make every call pay for it and Apple recommends reuse.
 */
export class AscTokenCache {
  readonly #now: () => number;
  readonly #tokens = new Map<string, CachedToken>();
  readonly #keys = new Map<string, Promise<SigningKey>>();

  /** `now` returns epoch milliseconds; tests pass a fake clock. */
  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  async token(credentials: AscCredentials): Promise<string> {
    const key = cacheKey(credentials);
    const now = Math.floor(this.#now() / 1000);
    const cached = this.#tokens.get(key);
    if (cached && cached.expiresAt - RENEW_BEFORE_EXPIRY_SECONDS > now) return cached.token;

    const expiresAt = now + TOKEN_LIFETIME_SECONDS;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: credentials.keyId, typ: 'JWT' })
      .setIssuer(credentials.issuerId)
      .setIssuedAt(now)
      .setExpirationTime(expiresAt)
      .setAudience(ASC_AUDIENCE)
      .sign(await this.#signingKey(key, credentials.privateKeyPem));
    this.#tokens.set(key, { token, expiresAt });
    return token;
  }

  /** Forget a token Apple refused, so the next call signs a fresh one. */
  invalidate(credentials: AscCredentials): void {
    this.#tokens.delete(cacheKey(credentials));
  }

  #signingKey(key: string, pem: string): Promise<SigningKey> {
    let signingKey = this.#keys.get(key);
    if (!signingKey) {
      signingKey = importPKCS8(pem, 'ES256');
      this.#keys.set(key, signingKey);
    }
    return signingKey;
  }
}

/** The process-wide cache: clients built per request still share tokens per account. */
export const sharedTokenCache = new AscTokenCache();
