import * as z from 'zod/mini';
import type { BlocklistPosition } from '../../shared/domain/sources/protection-service';
import type { RequestState } from '../../shared/http/request-state';
import { cursorParam, decodeCursor, encodeCursor, LIST_LIMIT, listLimit } from '../../shared/validation/list-params';
import { parseManagementParams } from '../../shared/validation/management-params';

/** A position in the block list: `b` (blocked, after UDID `a`) or `m` (monitor, after entry `a`: `<UDID>#<role>`). */
const cursorShape = z.object({
  l: z.enum(['b', 'm']),
  a: z.optional(z.string().check(z.regex(/^[0-9A-Fa-f-]{1,40}(#(adder|cracker))?$/))),
});

/** GET …/blocklist names its source in the path and takes `limit` (1–100) and the previous page's `cursor`. */
export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>): { sourceId: string; limit: number; from: BlocklistPosition | undefined } {
  const p = parseManagementParams(params, { shape: { limit: listLimit(), cursor: cursorParam() } });
  const cursor = decodeCursor(p.cursor, cursorShape);
  return {
    sourceId: pathParams.source_id ?? '',
    limit: p.limit ?? LIST_LIMIT.default,
    from: cursor ? { list: cursor.l === 'b' ? 'block' : 'monitor', after: cursor.a } : undefined,
  };
}

/** The opaque `next` of a page: empty at the end. */
export function nextCursor(next: BlocklistPosition | undefined): string {
  return next ? encodeCursor({ l: next.list === 'block' ? 'b' : 'm', ...(next.after ? { a: next.after } : {}) }) : '';
}
