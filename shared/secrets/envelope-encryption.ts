/**
 * Envelope encryption of Apple account secrets (secrets are encrypted at rest).
 *
 * Each sealed value has its own 256-bit data key and is encrypted with AES-256-GCM. Deployed, the data key
 * comes from KMS (`ACCOUNT_SECRETS_KEY_ARN`) and only its KMS-encrypted form is stored; locally the data key
 * is wrapped with a key file (`.local/account-secrets.key`, or `ACCOUNT_SECRETS_KEY_FILE`) created on first use.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { config } from '../config';

export interface SealedSecret {
  /** Who wraps the data key: KMS (deployed) or the local key file. */
  wrap: 'kms' | 'local';
  /** The wrapped data key, base64. */
  key: string;
  iv: string;
  tag: string;
  data: string;
}

interface KeyWrapper {
  kind: SealedSecret['wrap'];
  newDataKey(): Promise<{ plain: Buffer; wrapped: Buffer }>;
  unwrap(wrapped: Buffer): Promise<Buffer>;
}

function gcmEncrypt(key: Buffer, plain: Buffer): { iv: Buffer; tag: Buffer; data: Buffer } {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), data };
}

function gcmDecrypt(key: Buffer, iv: Buffer, tag: Buffer, data: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]);
}

export function localKeyFile(): string {
  return resolve(config().accountSecretsKeyFile);
}

function localMasterKey(): Buffer {
  const file = localKeyFile();
  try {
    const key = readFileSync(file);
    if (key.length === 32) return key;
    throw new Error(`${file} must hold exactly 32 bytes`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32);
  // `wx`: if another process created the file meanwhile, use its key rather than overwrite it.
  try {
    writeFileSync(file, key, { flag: 'wx', mode: 0o600 });
    return key;
  } catch {
    return readFileSync(file);
  }
}

const localWrapper: KeyWrapper = {
  kind: 'local',
  async newDataKey() {
    const plain = randomBytes(32);
    const { iv, tag, data } = gcmEncrypt(localMasterKey(), plain);
    return { plain, wrapped: Buffer.concat([iv, tag, data]) };
  },
  async unwrap(wrapped) {
    return gcmDecrypt(localMasterKey(), wrapped.subarray(0, 12), wrapped.subarray(12, 28), wrapped.subarray(28));
  },
};

function kmsWrapper(keyArn: string): KeyWrapper {
  // Loaded only when deployed, so local runs and tests never need AWS credentials for KMS.
  const client = import('@aws-sdk/client-kms').then((kms) => ({ kms, client: new kms.KMSClient({}) }));
  return {
    kind: 'kms',
    async newDataKey() {
      const { kms, client: c } = await client;
      const out = await c.send(new kms.GenerateDataKeyCommand({ KeyId: keyArn, KeySpec: 'AES_256' }));
      if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS returned no data key');
      return { plain: Buffer.from(out.Plaintext), wrapped: Buffer.from(out.CiphertextBlob) };
    },
    async unwrap(wrapped) {
      const { kms, client: c } = await client;
      const out = await c.send(new kms.DecryptCommand({ CiphertextBlob: wrapped, KeyId: keyArn }));
      if (!out.Plaintext) throw new Error('KMS returned no plaintext');
      return Buffer.from(out.Plaintext);
    },
  };
}

let cachedKms: { arn: string; wrapper: KeyWrapper } | undefined;

function wrapperFor(kind: SealedSecret['wrap']): KeyWrapper {
  if (kind === 'local') return localWrapper;
  const arn = config().accountSecretsKeyArn;
  if (!arn) throw new Error('ACCOUNT_SECRETS_KEY_ARN is not set: cannot open a KMS-sealed secret');
  if (cachedKms?.arn !== arn) cachedKms = { arn, wrapper: kmsWrapper(arn) };
  return cachedKms.wrapper;
}

function currentWrapper(): KeyWrapper {
  return wrapperFor(config().accountSecretsKeyArn ? 'kms' : 'local');
}

/**
 * Opened data keys, per wrapped key: a warm Lambda decrypts each account's secrets with one KMS call rather
 * than one per add.
 */
const openedKeys = new Map<string, Promise<Buffer>>();

export async function seal(value: unknown): Promise<SealedSecret> {
  const wrapper = currentWrapper();
  const { plain, wrapped } = await wrapper.newDataKey();
  const { iv, tag, data } = gcmEncrypt(plain, Buffer.from(JSON.stringify(value), 'utf8'));
  return { wrap: wrapper.kind, key: wrapped.toString('base64'), iv: iv.toString('base64'), tag: tag.toString('base64'), data: data.toString('base64') };
}

export async function open<T>(sealed: SealedSecret): Promise<T> {
  const cacheKey = `${sealed.wrap}:${sealed.key}`;
  let key = openedKeys.get(cacheKey);
  if (!key) {
    key = wrapperFor(sealed.wrap).unwrap(Buffer.from(sealed.key, 'base64'));
    openedKeys.set(cacheKey, key);
    key.catch(() => openedKeys.delete(cacheKey));
  }
  const plain = gcmDecrypt(await key, Buffer.from(sealed.iv, 'base64'), Buffer.from(sealed.tag, 'base64'), Buffer.from(sealed.data, 'base64'));
  return JSON.parse(plain.toString('utf8')) as T;
}
