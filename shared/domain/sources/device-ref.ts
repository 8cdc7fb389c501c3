/**
 * How a gate link names its device without carrying the UDID in clear: the UDID and whether the feed reader
 * proved it (a device key) or only claimed it (`?udid=`), sealed with AES-256-GCM under a key derived from
 * the source's link secret. The IV is derived from the content (as in SIV), so the same device gets the same
 * link within a window and a document keeps its ETag; the reference reveals nothing but equality.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto';

export interface DeviceRef {
  /** Upper-case UDID. */
  udid: string;
  /** Read with a device key: its unlocks count. */
  proven: boolean;
  /**
   * The device key's tag (`deviceKeyTag`) a proven link was issued under: the gate refuses it once that key is
   * revoked or replaced. Absent on links issued before the tag existed, and on claimed links.
   */
  keyTag?: string | undefined;
}

/** A short, one-way tag of a device key (12 base64url characters of its SHA-256): names the key, reveals nothing. */
export function deviceKeyTag(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 12);
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

const sealingKey = (secret: string) => createHmac('sha256', Buffer.from(secret, 'base64url')).update('gate-device-ref').digest();

export function sealDeviceRef(secret: string, ref: DeviceRef): string {
  const key = sealingKey(secret);
  const plain = Buffer.from(`${ref.proven ? 'p' : 'c'}${ref.udid}${ref.proven && ref.keyTag ? `~${ref.keyTag}` : ''}`, 'utf8');
  const iv = createHmac('sha256', key).update(plain).digest().subarray(0, IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The device a reference names; undefined when it was not sealed under this secret. */
export function openDeviceRef(secret: string, sealed: string): DeviceRef | undefined {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES || bytes.length > 128) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(secret), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    const flag = plain[0];
    if (flag !== 'p' && flag !== 'c') return undefined;
    const [udid, keyTag] = plain.slice(1).split('~');
    return { udid: udid!, proven: flag === 'p', ...(keyTag ? { keyTag } : {}) };
  } catch {
    return undefined;
  }
}
