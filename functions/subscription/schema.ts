import * as z from 'zod/mini';
import { validationError } from '../../shared/domain/errors';
import type { SubscribeRequest } from '../../shared/domain/subscriptions/subscription-service';
import type { RequestState } from '../../shared/http/request-state';
import { preprocess } from '../../shared/validation/fields';
import { parseManagementParams } from '../../shared/validation/management-params';

/** A plan id as the operator's CLI hands them out. */
export const planIdField = () => z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/));

/** true/false, or from a query string or form "true", "false", "1", "0". */
const flag = () =>
  preprocess((v) => {
    const t = typeof v === 'string' ? v.trim().toLowerCase() : v;
    return t === 'true' || t === '1' || t === 1 ? true : t === 'false' || t === '0' || t === 0 ? false : t;
  }, z.boolean());

export const subscribeShape = { plan: z.optional(planIdField()), trial: z.optional(flag()) };

export type SubscriptionRequest = { action: 'read' } | { action: 'subscribe'; request: SubscribeRequest };

/** GET reads the subscription; POST starts the trial (`trial: true`) or buys `plan`. */
export function parseRequest({ event, params }: Pick<RequestState, 'event' | 'params'>): SubscriptionRequest {
  if (event.httpMethod === 'GET') {
    parseManagementParams(params, { shape: {} });
    return { action: 'read' };
  }
  const { plan, trial } = parseManagementParams(params, { shape: subscribeShape, requireOne: true });
  if (trial === true) return { action: 'subscribe', request: { trial: true, plan } };
  if (plan === undefined) throw validationError('invalid_value', ['plan']);
  return { action: 'subscribe', request: { trial: false, plan } };
}
