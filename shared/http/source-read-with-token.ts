/**
 * Update source names its source in the path: the fields it answers and checks are read in the same
 * BatchGetItem as the token (`readWithToken` of `createHandler`), which saves the request a round trip and lets
 * its one write be a transaction that carries the rate-limit count (`countInTransaction`). Ownership is checked
 * by the source service afterwards, before anything is written or answered.
 */
import { sourceAnswerRead, type SourceAsRead } from '../db/repositories/source-repository';
import { authenticateWith } from '../domain/users/authentication';
import { authenticateSessionWith } from '../domain/console/session-auth';
import type { ReadWithToken } from './middlewares/token-auth';
import type { RequestState } from './request-state';

/** The path's source id when it can be a key (the chain answers any other 404 before the business code). */
function namedSource(state: Pick<RequestState, 'pathParams'>): string | undefined {
  const id = state.pathParams.source_id;
  return id !== undefined && /^[A-Za-z0-9_-]{1,128}$/.test(id) ? id : undefined;
}

export const sourceReadWithToken: ReadWithToken = {
  reads: (state) => {
    const sourceId = namedSource(state);
    return sourceId === undefined ? undefined : { source: sourceAnswerRead(sourceId) };
  },
  authenticateWith,
  authenticateSessionWith,
};

/** The source read with the token for `sourceId`: undefined when none was, null when it was and is absent. */
export function sourceReadWith(state: Pick<RequestState, 'readWithToken' | 'pathParams'>, sourceId: string): SourceAsRead | null | undefined {
  const read = state.readWithToken;
  if (!read || !('source' in read) || namedSource(state) !== sourceId) return undefined;
  return read.source as SourceAsRead | null;
}
