/** Field rules of a reseller's own Apple accounts (`/api/user/apple-accounts`). */
import { createPrivateKey } from 'node:crypto';
import * as z from 'zod/mini';
import { ACCOUNT_MODES } from '../records/account';
import { WARRANTY_TIERS } from '../domain/pricing/warranty';
import { preprocess } from './fields';
import { intBetween } from './event-fields';
import { unixSeconds } from './list-params';

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** The issuer id App Store Connect shows above the keys: a UUID. */
export const issuerId = () => preprocess(trimmed, z.string().check(z.regex(/^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/)));

/** A key id: 10 capital letters and digits. */
export const keyId = () => preprocess(trimmed, z.string().check(z.regex(/^[A-Z0-9]{10}$/)));

/** Whether the text is an App Store Connect `.p8`: a PKCS#8 PEM of a P-256 key. */
function isApiKeyPem(pem: string): boolean {
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}

/** The `.p8`'s text as downloaded (a PEM), at most 4 KB; `\n` written out in one line is read as a line break. */
export const apiKeyPem = () =>
  preprocess(
    (v) => (typeof v === 'string' ? v.trim().replace(/\\n/g, '\n') : v),
    z.string().check(z.maxLength(4096), z.refine(isApiKeyPem)),
  );

export const accountMode = () => z.optional(z.enum(ACCOUNT_MODES));

export const accountTiers = () =>
  z.optional(
    preprocess(
      (v) => (typeof v === 'string' ? v.split(',').map((t) => Number(t.trim())) : v),
      z.array(z.number().check(z.refine((t) => (WARRANTY_TIERS as readonly number[]).includes(t)))).check(z.minLength(1), z.maxLength(WARRANTY_TIERS.length)),
    ),
  );

export const accountWeight = () => z.optional(intBetween(1, 1_000_000));

export const membershipRenewsAt = () => unixSeconds();

/** An account id as the service makes them (`acc_…`). */
export const accountId = () => preprocess(trimmed, z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)));
