/**
 * The parameters of an add, shared by the three add routes and parsed strictly: `add_mode` beats `mode`,
 * `warranty` beats `shtype`, `force` has a fixed truthy/falsy vocabulary, review refuses tiers 4 and 6, UDIDs
 * are 25 or 40 hex characters. The first failure becomes a DomainError naming the parameter.
 */
import * as z from 'zod/mini';
import type { AccountMode } from '../records/account';
import type { AddRequest } from '../domain/add-device/add-request';
import { BEIZHU_MAX_CHARS, isUdidFormat, type DevicePool } from '../records/device';
import { DomainError } from '../domain/errors';
import { CODE_PATTERN } from '../domain/pricing/activation-codes';
import type { PricedClass } from '../domain/pricing/prices';
import { isWarrantyTier, tierAllowedIn } from '../domain/pricing/warranty';
import { codePoints, optionalSourceId } from './fields';

const TRUTHY = ['true', '1', 'yes', 'y', 'on'];
const FALSY = ['false', '0', 'no', 'n', 'off', ''];

/** Scalars only: a query/form value is a string, a JSON value may be a number or boolean. */
const scalar = z.pipe(
  z.optional(z.union([z.string(), z.number(), z.boolean()])),
  z.transform((v: string | number | boolean | undefined) => (v === undefined ? undefined : String(v).trim())),
);

const paramsSchema = z.object({
  udid: scalar,
  mode: scalar,
  add_mode: scalar,
  force: scalar,
  warranty: scalar,
  shtype: scalar,
  type: scalar,
  deviceType: scalar,
  beizhu: scalar,
  code: scalar,
  source_id: optionalSourceId(),
});

/** An add as its routes parse it: the add itself, and the caller's source whose device feed URL the answer carries. */
export interface AddParams extends AddRequest {
  sourceId: string | undefined;
}

const fail = (field: string) => new DomainError('validation', 'invalid_value', { fields: [field] });

const present = (v: string | undefined): v is string => v !== undefined && v !== '';

/** `fixedMode` is the legacy routes' mode (`/api/adddevice` instant, `/api/addyydevice` review). */
export function parseAddRequest(params: Record<string, unknown>, fixedMode?: AccountMode): AddParams {
  const parsed = paramsSchema.safeParse(params);
  if (!parsed.success) throw fail(String(parsed.error.issues[0]?.path[0] ?? 'body'));
  const p = parsed.data;

  const udid = p.udid ?? '';
  if (!isUdidFormat(udid)) throw new DomainError('validation', 'udid_invalid', { fields: ['udid'] });

  let mode: AccountMode;
  if (fixedMode) mode = fixedMode;
  else {
    const [field, value] = present(p.add_mode) ? ['add_mode', p.add_mode] : ['mode', p.mode ?? ''];
    const lowered = value.toLowerCase();
    if (lowered === '' ) mode = 'instant';
    else if (lowered === 'instant' || lowered === 'review') mode = lowered;
    else throw fail(field);
  }

  const forceText = (p.force ?? '').toLowerCase();
  if (!TRUTHY.includes(forceText) && !FALSY.includes(forceText)) throw fail('force');
  const force = TRUTHY.includes(forceText);

  const [tierField, tierText] = present(p.warranty) ? ['warranty', p.warranty] : ['shtype', p.shtype ?? ''];
  let tier: number | undefined;
  if (tierText !== '') {
    if (!/^\d$/.test(tierText) || !isWarrantyTier(Number(tierText))) throw fail(tierField);
    tier = Number(tierText);
    if (!tierAllowedIn(mode, tier)) throw new DomainError('validation', 'review_warranty_unsupported', { fields: [tierField], params: { tier } });
  }

  const typeText = p.type ?? '';
  if (!['', '0', '1'].includes(typeText)) throw fail('type');
  const pool: DevicePool = typeText === '1' ? 1 : 0;

  const deviceType = (p.deviceType ?? '').toLowerCase();
  if (!['', 'iphone', 'ipad'].includes(deviceType)) throw fail('deviceType');
  const deviceClass: PricedClass = deviceType === 'ipad' ? 'ipad' : 'iphone';

  const beizhu = p.beizhu ?? '';
  if (codePoints(beizhu) > BEIZHU_MAX_CHARS) throw fail('beizhu');

  const code = present(p.code) ? p.code.toUpperCase() : undefined;
  if (code !== undefined && !CODE_PATTERN.test(code)) throw fail('code');

  return { udid, mode, force, tier, pool, deviceClass, beizhu, code, sourceId: p.source_id };
}
