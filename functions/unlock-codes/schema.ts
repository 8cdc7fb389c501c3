import * as z from 'zod/mini';
import { UNLOCK_CODE_LIMITS } from '../../shared/records/protection';
import type { RequestState } from '../../shared/http/request-state';
import { parseManagementParams } from '../../shared/validation/management-params';

/** An integer in [min, max]; from a query string or form plain decimal digits only ("1x", "01" are refused). */
const intBetween = ({ min, max }: { min: number; max: number }) =>
  z.pipe(
    z.transform((v: unknown) => {
      const t = typeof v === 'string' ? v.trim() : v;
      return typeof t === 'string' && /^[1-9]\d{0,8}$/.test(t) ? Number(t) : t;
    }),
    z.number().check(z.refine((n) => Number.isSafeInteger(n) && n >= min && n <= max)),
  );

export const createUnlockCodesShape = {
  count: intBetween(UNLOCK_CODE_LIMITS.count),
  days: intBetween(UNLOCK_CODE_LIMITS.days),
};

/** GET lists the source's codes; POST creates a batch. */
type UnlockCodesRequest = { sourceId: string } & ({ action: 'list' } | { action: 'create'; count: number; days: number });

export function parseRequest({ event, params, pathParams }: Pick<RequestState, 'event' | 'params' | 'pathParams'>): UnlockCodesRequest {
  const sourceId = pathParams.source_id ?? '';
  if (event.httpMethod === 'GET') {
    parseManagementParams(params, { shape: {} });
    return { action: 'list', sourceId };
  }
  return { action: 'create', sourceId, ...parseManagementParams(params, { shape: createUnlockCodesShape }) };
}
