import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { eventTypeList, eventsPageData } from '../../shared/contracts/event-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    after: describe(z.optional(z.string()), 'Cursor: a previous next_cursor (or a 10-digit Unix second: events from that second on); from the oldest kept when omitted'),
    types: describe(z.optional(eventTypeList), 'Only these types'),
    limit: describe(z.optional(z.union([z.number(), z.string()])), 'Events read per page, 1–100 (default 50); with types, a page may hold fewer'),
  }),
  response: eventsPageData,
  notes: 'One DynamoDB Query per page. Events are kept 30 days. Events of the last 30 seconds may come again on the next poll: drop repeats by id.',
};
