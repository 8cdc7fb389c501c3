import type { RequestState } from '../../shared/http/request-state';
import { singleQueryValue } from '../../shared/http/request-url';

/**
 * A signed link from the feed. An app id that is not plain decimal digits names no app; a link parameter
 * counts only when given exactly once. What is unusable stays undefined for the gate to refuse in its order.
 */
export function parseRequest({ event, pathParams }: Pick<RequestState, 'event' | 'pathParams'>) {
  const appId = pathParams.app_id ?? '';
  const exp = singleQueryValue(event, 'exp');
  return {
    sourceId: pathParams.source_id ?? '',
    appId: /^\d{1,10}$/.test(appId) ? Number(appId) : undefined,
    device: singleQueryValue(event, 'd'),
    exp: exp !== undefined && /^\d{1,12}$/.test(exp) ? Number(exp) : undefined,
    sig: singleQueryValue(event, 'sig'),
    // Only what the signature covers counts: a link that claims otherwise fails it.
    locked: singleQueryValue(event, 'l') === '1',
  };
}
