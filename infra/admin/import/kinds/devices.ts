/**
 * `import --devices FILE --user U`: a certificate panel's devices, one row per certificate, brought over as the
 * user's devices on the user's tenant (public pool, enabled, no Apple account), as `device import` does one.
 *
 * Key: the row's `kid`, or when the panel had none a kid derived from the user, the UDID and the add time, so
 * a re-run finds the row again. A kid already stored for the same user and UDID is `unchanged` (never
 * overwritten: the owner may have changed it since); stored for anyone or anything else, the row is refused.
 * Numeric ids are reserved per commit with one counter update for all of its new rows.
 */
import * as z from 'zod/mini';
import { findDeviceOwners, putDevices, reserveDeviceIds } from '../../../../shared/db/repositories/device-repository';
import { readDer, Tag } from '../../../../shared/apple/der';
import { decodeProvisioningProfile } from '../../../../shared/apple/profile-reader';
import { codePoints } from '../../../../shared/validation/fields';
import { isCleanText } from '../../../../shared/http/middlewares/input-limits';
import { stableId } from '../../../../shared/ids';
import { isWarrantyTier, WARRANTY_TIERS } from '../../../../shared/domain/pricing/warranty';
import {
  BEIZHU_MAX_CHARS,
  DEVICE_TYPES,
  DEVICE_ZT,
  isUdidFormat,
  KID_PATTERN,
  PNAME_MAX_CHARS,
  udidKey,
  type Device,
  type DeviceType,
  type DeviceZt,
} from '../../../../shared/records/device';
import type { User } from '../../../../shared/records/user';
import type { CommitResult, ImportKind, KeyedRow, Prepared, RowError } from '../runner';
import type { TableRow } from '../table-file';
import { parsePanelTime } from '../time-cells';
import { checkedCell, convertedCell, requiredCell, rowErrors } from '../zod-rows';

export const deviceLayout = {
  columns: [
    { name: 'udid' },
    { name: 'kid', aliases: ['cert_id', 'certid'] },
    { name: 'type', aliases: ['device_type', 'devicetype'] },
    { name: 'warranty', aliases: ['shtype'] },
    { name: 'beizhu', aliases: ['remark', 'note'] },
    { name: 'pname', aliases: ['device_name', 'devicename'] },
    { name: 'addtime', aliases: ['add_time', 'created_at', 'createtime'] },
    { name: 'zt', aliases: ['status'] },
    { name: 'p12', aliases: ['p12_base64'] },
    { name: 'mobileprovision', aliases: ['profile', 'mobileprovision_base64'] },
  ],
  headerMarkers: ['udid'],
} as const;

/** A base64 PKCS#12 file is larger than any certificate a panel stores; this bounds a bad cell. */
const MAX_BLOB_CHARS = 1_000_000;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const isBase64 = (value: string) => value.length % 4 === 0 && value.length <= MAX_BLOB_CHARS && BASE64.test(value);

/** PKCS#12 is a DER SEQUENCE starting with version 3; the password is the panel's, so the content stays closed. */
function isPkcs12(value: string): boolean {
  if (!isBase64(value)) return false;
  try {
    const pfx = readDer(Buffer.from(value, 'base64'));
    const version = pfx.children[0];
    return pfx.tag === Tag.SEQUENCE && version?.tag === Tag.INTEGER && version.content.length === 1 && version.content[0] === 3;
  } catch {
    return false;
  }
}

export interface DeviceRow {
  udid: string;
  kid: string;
  type?: DeviceType | undefined;
  warranty?: number | undefined;
  beizhu?: string | undefined;
  pname?: string | undefined;
  addtime?: number | undefined;
  zt?: DeviceZt | undefined;
  p12?: string | undefined;
  profile?: { base64: string; udids: string[]; expiresAt: number } | undefined;
}

function deviceRowSchema(now: number, utcOffsetSeconds: number) {
  return z.object({
    udid: requiredCell(isUdidFormat, 'not a UDID: 25 characters XXXXXXXX-XXXXXXXXXXXXXXXX or 40, hexadecimal'),
    kid: checkedCell((v) => KID_PATTERN.test(v), 'letters, digits, "-", "_" and "." only, at most 128'),
    type: z.optional(z.pipe(z.string().check(z.trim(), z.toLowerCase()), z.enum(DEVICE_TYPES, { error: `must be ${DEVICE_TYPES.join(', ')}` }))),
    warranty: convertedCell((v) => {
      if (!/^\d$/.test(v) || !isWarrantyTier(Number(v))) throw new Error(`must be one of ${WARRANTY_TIERS.join(', ')}`);
      return Number(v);
    }),
    beizhu: checkedCell((v) => codePoints(v) <= BEIZHU_MAX_CHARS && isCleanText(v, true), `at most ${BEIZHU_MAX_CHARS} characters, no control characters but tab and line breaks`),
    pname: checkedCell((v) => codePoints(v) <= PNAME_MAX_CHARS && isCleanText(v, false), `at most ${PNAME_MAX_CHARS} characters, no control characters`),
    addtime: convertedCell((v) => {
      const at = parsePanelTime(v, utcOffsetSeconds);
      if (at === null) throw new Error('not a time: Unix seconds or YYYY-MM-DD HH:MM:SS');
      if (at !== undefined && at > now + 86_400) throw new Error('in the future');
      return at;
    }),
    zt: z.optional(z.pipe(z.string().check(z.trim(), z.toLowerCase()), z.enum(DEVICE_ZT, { error: `must be ${DEVICE_ZT.join(', ')}` }))),
    p12: checkedCell(isPkcs12, 'not a base64 PKCS#12 (.p12) file'),
    mobileprovision: convertedCell((v) => {
      if (!isBase64(v)) throw new Error('not base64');
      try {
        const profile = decodeProvisioningProfile(v);
        return { base64: v, udids: profile.udids.map(udidKey), expiresAt: Math.floor(profile.expirationDate.getTime() / 1000) };
      } catch (error) {
        throw new Error(`not a provisioning profile (${error instanceof Error ? error.message : String(error)})`, { cause: error });
      }
    }),
  });
}

/** The kid a row without one gets: the same for the same user, UDID and add time. */
export function derivedKid(userId: string, udid: string, addtime: string | undefined): string {
  return stableId('k', `device-import\n${userId}\n${udidKey(udid)}\n${addtime ?? ''}`, 16);
}

export function devicesKind(options: { user: User; now: number; utcOffsetSeconds: number }): ImportKind<DeviceRow> {
  const { user, now } = options;
  const schema = deviceRowSchema(now, options.utcOffsetSeconds);

  const prepare = (row: TableRow): Prepared<DeviceRow> => {
    const parsed = schema.safeParse(row.values);
    if (!parsed.success) return { ok: false, errors: rowErrors(row.line, parsed.error) };
    const { mobileprovision: profile, ...rest } = parsed.data;
    if (profile && !profile.udids.includes(udidKey(rest.udid))) {
      return { ok: false, errors: [{ line: row.line, column: 'mobileprovision', reason: 'the profile does not list this UDID' }] };
    }
    const kid = rest.kid ?? derivedKid(user.userId, rest.udid, row.values.addtime?.trim());
    return { ok: true, row: { line: row.line, key: kid, value: { ...rest, kid, profile } } };
  };

  const toDevice = (row: DeviceRow, id: number): Device => ({
    kid: row.kid,
    id,
    user_id: user.userId,
    tenant_id: user.tenantId,
    udid: row.udid,
    pname: row.pname ?? '',
    type: row.type ?? 'iphone',
    shtype: row.warranty ?? 0,
    zt: row.zt ?? 'normal',
    // The profile expires with the membership that signed it: the closest thing to it a panel export has.
    ytime: row.profile?.expiresAt ?? 0,
    enabled: true,
    beizhu: row.beizhu ?? '',
    p12: row.p12 ?? '',
    mobileprovision: row.profile?.base64 ?? '',
    pool: 0,
    account_id: '',
    addtime: row.addtime ?? now,
    apple_device_id: '',
    reservation_id: '',
  });

  const commit = async (rows: KeyedRow<DeviceRow>[], dryRun: boolean): Promise<CommitResult> => {
    const stored = await findDeviceOwners(rows.map((r) => r.key));
    const fresh: KeyedRow<DeviceRow>[] = [];
    const errors: RowError[] = [];
    let unchanged = 0;
    for (const row of rows) {
      const existing = stored.get(row.key);
      if (!existing) fresh.push(row);
      else if (existing.user_id === user.userId && existing.tenant_id === user.tenantId && udidKey(existing.udid) === udidKey(row.value.udid)) unchanged++;
      // Whose device it is stays private: the operator learns only that the kid is taken.
      else errors.push({ line: row.line, column: 'kid', reason: 'kid already belongs to another device' });
    }
    if (!dryRun && fresh.length > 0) {
      const ids = await reserveDeviceIds(user.tenantId, fresh.length);
      await putDevices(fresh.map((row, i) => toDevice(row.value, ids[i]!)));
    }
    return { imported: fresh.length, unchanged, errors };
  };

  return { name: 'devices', layout: deviceLayout, keyColumn: 'kid', prepare, commit };
}
