import * as z from 'zod/mini';
import { BEIZHU_MAX_CHARS, DEVICE_TYPES, DEVICE_ZT, isUdidFormat } from '../../shared/records/device';
import type { DeviceListFilters } from '../../shared/domain/devices/device-list';
import { WARRANTY_TIERS } from '../../shared/domain/pricing/warranty';
import type { RequestState } from '../../shared/http/request-state';
import { agentIdParam, preprocess } from '../../shared/validation/fields';
import { checkRange, cursorParam, decodeCursor, flag, LIST_LIMIT, listLimit, oneOf, parseListParams, searchText, unixSeconds, wholeNumber } from '../../shared/validation/list-params';

export const deviceListShape = {
  limit: listLimit(),
  cursor: cursorParam(),
  udid: preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v), z.optional(z.string().check(z.refine(isUdidFormat)))),
  zt: oneOf(DEVICE_ZT),
  enabled: flag(),
  pool: wholeNumber({ min: 0, max: 1 }),
  warranty: wholeNumber({ min: 0, max: 6 }).check(z.refine((tier) => tier === undefined || (WARRANTY_TIERS as readonly number[]).includes(tier))),
  device_type: oneOf(DEVICE_TYPES),
  added_from: unixSeconds(),
  added_to: unixSeconds(),
  expires_before: unixSeconds(),
  beizhu: searchText(BEIZHU_MAX_CHARS),
  account_id: preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v), z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)))),
  agent: agentIdParam(),
};

const cursorShape = z.object({ k: z.string().check(z.regex(/^[A-Za-z0-9._-]{1,128}$/)), t: z.number().check(z.refine((n) => Number.isSafeInteger(n) && n >= 0)) });

export function parseRequest({ params }: Pick<RequestState, 'params'>): { filters: DeviceListFilters; after: { kid: string; addtime: number } | undefined; limit: number; agent: string | undefined } {
  const p = parseListParams(params, deviceListShape);
  checkRange(p.added_from, p.added_to, ['added_from', 'added_to']);
  const cursor = decodeCursor(p.cursor, cursorShape);
  return {
    filters: {
      udid: p.udid,
      zt: p.zt,
      enabled: p.enabled,
      pool: p.pool,
      warranty: p.warranty,
      deviceType: p.device_type,
      addedFrom: p.added_from,
      addedTo: p.added_to,
      expiresBefore: p.expires_before,
      beizhu: p.beizhu,
      accountId: p.account_id,
    },
    after: cursor ? { kid: cursor.k, addtime: cursor.t } : undefined,
    limit: p.limit ?? LIST_LIMIT.default,
    agent: p.agent,
  };
}
