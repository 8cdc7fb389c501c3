/** The device list's filters: exactly the parameters of `/api/device/list`, kept in the route's query. */
import type { SessionPaths } from '../../api/client';

export type ListQuery = NonNullable<NonNullable<SessionPaths['/api/device/list']['get']['parameters']>['query']>;

export const ZT = ['normal', 'processing', 'revoked', 'expired', 'ineligible', 'failed'] as const;
export const WARRANTIES = ['0', '1', '2', '3', '4', '6'] as const;
export const DEVICE_TYPES = ['iphone', 'ipad', 'mac'] as const;

/** Filters whose value is a date in the form and Unix seconds in the API. */
export const DATE_FILTERS = ['added_from', 'added_to', 'expires_before'] as const;
export const TEXT_FILTERS = ['udid', 'beizhu', 'account_id', 'agent'] as const;
export const CHOICE_FILTERS = ['zt', 'enabled', 'pool', 'warranty', 'device_type'] as const;
export const FILTERS = [...TEXT_FILTERS, ...CHOICE_FILTERS, ...DATE_FILTERS] as const;
export type FilterName = (typeof FILTERS)[number];

/** `2026-11-27` → Unix seconds at that day's start (or end, for an "until") in the browser's time zone. */
export function dayToSeconds(day: string, endOfDay = false): string {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return '';
  const at = new Date(y, m - 1, d, endOfDay ? 23 : 0, endOfDay ? 59 : 0, endOfDay ? 59 : 0);
  return String(Math.floor(at.getTime() / 1000));
}

export function secondsToDay(seconds: string | null): string {
  if (!seconds || !/^\d+$/.test(seconds)) return '';
  const at = new Date(Number(seconds) * 1000);
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
}

/** The API's parameters from the route's query: only known filters, blanks dropped. */
export function listQuery(query: URLSearchParams): ListQuery {
  const out: Record<string, string> = {};
  for (const name of FILTERS) {
    const value = query.get(name);
    if (value) out[name] = value;
  }
  return out as ListQuery;
}
