import type { RequestState } from '../../shared/http/request-state';
import { parseFields } from '../../shared/validation/udid-capture-fields';
import { customerPageShape } from '../../shared/validation/customer-page-fields';

/** A `udid` or a capture `ticket` in the URL proves nothing and is ignored: only `st` and the session count. */
export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>) {
  const p = parseFields(params, customerPageShape);
  return { sourceId: pathParams.source_id ?? '', pageTicket: p.st, done: p.done, mode: p.mode };
}
