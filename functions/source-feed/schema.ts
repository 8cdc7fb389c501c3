/**
 * The feed address serves three operations (the route table tells them apart): a request with `code` unlocks
 * the source for a UDID, any other POST is a misuse report, and the rest read the feed. Malformed values are
 * kept as undefined rather than refused here: the service refuses them once it knows the source exists.
 */
import type { DeviceQuery } from '../../shared/domain/sources/feed-service';
import { normalizeUnlockCode } from '../../shared/domain/sources/protection';
import type { MisuseReport } from '../../shared/domain/sources/protection-service';
import type { RequestState } from '../../shared/http/request-state';
import { queryValues, singleQueryValue } from '../../shared/http/request-url';
import { udidParam } from '../../shared/validation/fields';

type SourceFeedRequest = { sourceId: string } & (
  | { operation: 'unlock'; udid: string | undefined; code: string | undefined }
  | { operation: 'report'; report: MisuseReport | undefined }
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

const KID_MAX = 128;
/** Kids looked up per read: enough for any client, few enough to keep a read cheap. */
const KIDS_MAX = 5;

/**
 * `?udid=` (and `kid=`) name the installing device. A UDID counts only when it is given once and well formed;
 * anything else counts as absent.
 */
function deviceQuery(event: RequestState['event']): DeviceQuery {
  const kids = queryValues(event, 'kid').map((k) => k.trim()).filter((k) => k !== '' && [...k].length <= KID_MAX);
  return { udid: udidParam(singleQueryValue(event, 'udid')), kids: [...new Set(kids)].slice(0, KIDS_MAX) };
}

export function parseRequest({ operation, params, pathParams, event }: Pick<RequestState, 'operation' | 'params' | 'pathParams' | 'event'>): SourceFeedRequest {
  const sourceId = pathParams.source_id ?? '';
  if (operation === 'unlock') return { sourceId, operation, udid: udidParam(params.udid), code: normalizeUnlockCode(params.code) };
  if (operation === 'report') return { sourceId, operation, report: parseReport(params.value) };
  return { sourceId, operation: 'read', device: deviceQuery(event) };
}
