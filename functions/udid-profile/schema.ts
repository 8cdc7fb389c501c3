import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import { idField, parseFields, returnTarget } from '../../shared/validation/udid-capture-fields';

export const profileShape = { return: z.optional(returnTarget()), user: z.optional(idField()) };

export function parseRequest({ params }: Pick<RequestState, 'params'>): { returnUrl: string | undefined; userId: string | undefined } {
  const p = parseFields(params, profileShape);
  return { returnUrl: p.return, userId: p.user };
}
