import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import { parseFields, ticketField } from '../../shared/validation/udid-capture-fields';

/** `udid` arrives with the redirect too; the page shows the ticket's UDID, never an unproved one. */
export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>): { sourceId: string; ticket: string | undefined } {
  const p = parseFields(params, { ticket: z.optional(ticketField()) });
  return { sourceId: pathParams.source_id ?? '', ticket: p.ticket };
}
