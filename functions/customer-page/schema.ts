import type { RequestState } from '../../shared/http/request-state';
import * as z from 'zod/mini';
import { customerPageShape, storeField } from '../../shared/validation/customer-page-fields';
import { parseFields } from '../../shared/validation/udid-capture-fields';

/** `udid` and `ticket` arrive with the capture's redirect: ignored, the page trusts only `st` and its session. */
export function parseRequest({ params }: Pick<RequestState, 'params'>) {
  const p = parseFields(params, { ...customerPageShape, store: z.optional(storeField()) });
  return { pageTicket: p.st, done: p.done, mode: p.mode, store: p.store };
}
