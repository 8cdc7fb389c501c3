import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import type { FeedRequest } from '../../shared/domain/events/feed';
import { parseManagementParams } from '../../shared/validation/management-params';
import { eventCursor, eventTypes, pageLimit } from '../../shared/validation/event-fields';

export const listEventsShape = {
  after: z.optional(eventCursor()),
  types: z.optional(eventTypes()),
  limit: z.optional(pageLimit()),
};

export function parseRequest({ params }: Pick<RequestState, 'params'>): FeedRequest {
  return parseManagementParams(params, { shape: listEventsShape });
}
