/**
 * What the device routes take and answer, for the OpenAPI document (the functions' own parsers enforce the
 * rules; the HTTP tests check every answer against these shapes).
 */
import * as z from 'zod/mini';
import { UDID_PATTERN } from '../records/device';
import { ID_PATTERN } from '../ids';
import { WARRANTY_TIERS } from '../domain/pricing/warranty';
import { describe } from './describe';

export const tokenParam = describe(z.string(), 'The API token (query or body)');
export const kidParam = describe(z.optional(z.string().check(z.maxLength(128))), 'Device KID: picks one certificate when a UDID has several');
export const udidParam = describe(z.optional(z.string().check(z.maxLength(128))), 'Device UDID');

const feedSourceParam = describe(
  z.optional(z.string().check(z.regex(ID_PATTERN))),
  'One of your sources on this host: the answer then carries feed_url, the device’s own feed URL on it (…/api/rjy/<source>/appstore?dk=<device key>). Another’s or unknown source: source_not_found; a malformed id: invalid_value',
);

const feedUrlFields = {
  feed_url: describe(z.optional(z.string()), 'Only with source_id: the device’s own feed URL on that source (its device key is issued once and stays until revoked)'),
  feed_url_error: describe(z.optional(z.literal('unavailable')), 'Only with source_id, when the device key could not be issued just then: the answer stands, ask again for the URL'),
};

export const deviceSelectorRequest = z.object({ token: tokenParam, kid: kidParam, udid: udidParam });

export const deviceInfoRequest = z.object({ token: tokenParam, kid: kidParam, udid: udidParam, source_id: feedSourceParam });

export const deviceStatusRequest = z.object({
  token: tokenParam,
  kid: kidParam,
  udid: udidParam,
  action: describe(z.optional(z.enum(['enable', 'disable', 'toggle'])), 'Default toggle'),
});

export const deviceStatusData = z.object({
  id: z.number(),
  kid: z.string(),
  udid: z.string(),
  enabled: z.boolean(),
  yblack: z.enum(['Ysucc', 'Yno']),
  status_name: z.string(),
  status_code: z.union([z.literal(0), z.literal(1)]),
});

export const deviceInfoData = z.object({
  kid: z.string(),
  udid: z.string(),
  pname: z.string(),
  type: z.string(),
  shtype: z.number(),
  zt: describe(z.string(), 'normal, processing, revoked, expired, ineligible or failed'),
  ytime: describe(z.number(), 'Membership expiry, Unix seconds; 0 = unknown'),
  enabled: z.boolean(),
  beizhu: z.string(),
  ...feedUrlFields,
});

const addParams = {
  token: tokenParam,
  udid: describe(z.optional(z.string().check(z.regex(UDID_PATTERN))), '25 characters (XXXXXXXX-XXXXXXXXXXXXXXXX) or 40, hexadecimal; required unless capture is given'),
  capture: describe(z.optional(z.string()), 'Instead of udid: the ticket of a verified UDID capture (GET /api/udid/profile); its UDID is added'),
  force: describe(z.optional(z.string()), 'true 1 yes y on / false 0 no n off; skips the short-circuit and the force-add period'),
  warranty: describe(z.optional(z.enum(WARRANTY_TIERS.map(String))), 'Warranty tier; review mode refuses 4 and 6'),
  shtype: describe(z.optional(z.string()), 'Legacy alias of warranty, used only when warranty is empty'),
  type: describe(z.optional(z.enum(['0', '1'])), 'Pool: 0 public (default), 1 private'),
  deviceType: describe(z.optional(z.enum(['iphone', 'ipad'])), 'Default iphone'),
  beizhu: describe(z.optional(z.string().check(z.maxLength(200))), 'Remark'),
  code: describe(z.optional(z.string()), 'Activation code (pays the add and fixes the tier)'),
  source_id: feedSourceParam,
};

/** The legacy routes fix the mode. */
export const legacyAddRequest = z.object(addParams);

export const addRequest = z.object({
  ...addParams,
  mode: describe(z.optional(z.enum(['instant', 'review'])), 'Default instant'),
  add_mode: describe(z.optional(z.enum(['instant', 'review'])), 'Alias of mode; beats mode'),
});

export const addedCertificateData = z.object({
  id: describe(z.string(), 'The certificate kid; in review mode the reservation id'),
  pool: z.number(),
  addtime: z.number(),
  mobileprovision: describe(z.string(), 'Base64 ad hoc profile; empty while a review is pending'),
  p12: describe(z.string(), 'Base64 PKCS#12, password = the tenant setting p12Password'),
  ...feedUrlFields,
});
