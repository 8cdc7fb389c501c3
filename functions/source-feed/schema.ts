/**
 * The feed address serves three operations (the route table tells them apart): a request with `code` unlocks
 * the source for a UDID, any other POST is a misuse report, and the rest read the feed. Malformed values are
 * kept as undefined rather than refused here: the service refuses them once it knows the source exists.
 */
import type { DeviceQuery } from '../../shared/domain/sources/feed-service';
import { normalizeUnlockCode } from '../../shared/records/protection';
import type { MisuseReport } from '../../shared/domain/sources/protection-service';
import type { RequestState } from '../../shared/http/request-state';
import { singleQueryValue } from '../../shared/http/request-url';
import { DEVICE_KEY_PARAM, DEVICE_KEY_PATTERN } from '../../shared/domain/sources/device-keys';
import { udidParam } from '../../shared/validation/fields';

type SourceFeedRequest = { sourceId: string } & (
  | { operation: 'unlock'; udid: string | undefined; deviceKey: string | undefined; code: string | undefined }
  | { operation: 'report'; report: MisuseReport | undefined; json: boolean; deviceKey: string | undefined }
  | { operation: 'read'; device: DeviceQuery }
);

/** At most this much base64: two 40-character UDIDs and a separator need far less. */
const REPORT_MAX = 512;

/**
 * `base64("<adder>|<cracker>")`, standard or URL-safe, padded or not. Either part may be empty or unusable;
 * the report is malformed (undefined) unless at least one part is a well-formed UDID.
 */
export function parseReport(value: unknown): MisuseReport | undefined {
  if (typeof value !== 'string') return undefined;
  const encoded = value.trim();
  if (encoded === '' || encoded.length > REPORT_MAX || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded)) return undefined;
  const decoded = Buffer.from(encoded.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  const parts = decoded.split('|');
  if (parts.length !== 2) return undefined;
  const [adder, cracker] = parts.map(udidParam);
  return adder || cracker ? { adder, cracker } : undefined;
}

/**
 * `?dk=` (a device-bound feed URL's key) proves the device; `?udid=` only claims one. Each counts only when
 * given once and well formed; anything else counts as absent. `kid` binds nothing.
 */
function deviceQuery(event: RequestState['event']): DeviceQuery {
  return { udid: udidParam(singleQueryValue(event, 'udid')), key: deviceKeyParam(singleQueryValue(event, DEVICE_KEY_PARAM)) };
}

const deviceKeyParam = (value: string | undefined) => (value !== undefined && DEVICE_KEY_PATTERN.test(value) ? value : undefined);

export function parseRequest({ operation, params, pathParams, event }: Pick<RequestState, 'operation' | 'params' | 'pathParams' | 'event'>): SourceFeedRequest {
  const sourceId = pathParams.source_id ?? '';
  if (operation === 'unlock') return { sourceId, operation, udid: udidParam(params.udid), deviceKey: deviceQuery(event).key, code: normalizeUnlockCode(params.code) };
  if (operation === 'report') {
    const json = /^application\/json\s*(;|$)/i.test(event.headers?.['content-type'] ?? '');
    return { sourceId, operation, report: parseReport(params.value), json, deviceKey: deviceQuery(event).key };
  }
  return { sourceId, operation: 'read', device: deviceQuery(event) };
}
