import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpUrlencodeBodyParser from '@middy/http-urlencode-body-parser';
import { useMessages } from '../i18n/localize';
import { commonMessages } from '../i18n/messages/common';
import { rateLimitMessages } from '../i18n/messages/rate-limit';
import { logger } from '../logger';
import type { RouteDefinition } from '../routes';
import { envelope } from './middlewares/envelope';
import { httpsOnly } from './middlewares/https-only';
import { rawInputLimits } from './middlewares/input-limits';
import { routeOperation } from './middlewares/operation';
import { parameters } from './middlewares/parameters';
import { rateLimit } from './middlewares/rate-limit';
import { requestState } from './middlewares/request-state';
import { tenantAndLanguage } from './middlewares/tenant-language';
import { tokenAuth } from './middlewares/token-auth';
import type { ApiEvent, ApiResult, AppContext, BusinessResult, RequestState } from './request-state';

// The chain's own answers: validation, auth, limits, internal errors.
useMessages(commonMessages, rateLimitMessages);

export type BusinessHandler = (state: RequestState) => Promise<BusinessResult>;

/**
 * The Middy chain every function shares, configured from the function's route-table entry (its own constant in shared/routes.ts). Order matters:
 * the envelope comes first so its `onError` sees every failure, and the language is known before anything
 * that can fail on the caller's input. Structural limits run before the body is parsed (size, path ids) and
 * as it is merged into `params` (depth, keys, numbers, control characters). The rate limit follows auth (it counts per token owner) and precedes the
 * business code, so a refused request changes nothing.
 */
export function createHandler(route: RouteDefinition, business: BusinessHandler) {
  return middy<ApiEvent, ApiResult, Error, AppContext>()
    // Every log line carries the Lambda context; the event is never logged (tokens travel in it).
    .use(injectLambdaContext(logger, { logEvent: false }))
    .use(httpHeaderNormalizer())
    .use(requestState(route))
    .use(envelope(route))
    .use(httpsOnly())
    .use(tenantAndLanguage())
    .use(rawInputLimits())
    .use(httpJsonBodyParser({ disableContentTypeError: true }))
    .use(httpUrlencodeBodyParser({ disableContentTypeError: true }))
    .use(routeOperation(route))
    .use(parameters())
    .use(tokenAuth(route.auth))
    .use(rateLimit(route))
    .handler(async (_event: ApiEvent, context: AppContext) => (await business(context.app)) as unknown as ApiResult);
}
