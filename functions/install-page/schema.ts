import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import { parseFields, ticketField } from '../../shared/validation/udid-capture-fields';
import { customerPageShape } from '../../shared/validation/customer-page-fields';

/** `udid` arrives with the redirect too; the page shows the ticket's UDID, never an unproved one. */
export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>) {
  const p = parseFields(params, { ticket: z.optional(ticketField()), ...customerPageShape });
  return { sourceId: pathParams.source_id ?? '', ticket: p.ticket, pageTicket: p.st, done: p.done, mode: p.mode };
}
