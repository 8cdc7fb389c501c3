import type { RequestState } from '../../shared/http/request-state';
import { pagingShape, parseFields } from '../../shared/validation/udid-capture-fields';

export function parseRequest({ params }: Pick<RequestState, 'params'>): { limit: number; cursor: string | undefined } {
  const p = parseFields(params, pagingShape);
  return { limit: p.limit ?? 20, cursor: p.cursor };
}
