import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpUrlencodeBodyParser from '@middy/http-urlencode-body-parser';
import { useMessages } from '../i18n/localize';
import { commonMessages } from '../i18n/messages/common';
import { rateLimitMessages } from '../i18n/messages/rate-limit';
import { newsLookupMessages } from '../i18n/messages/news-lookup';
import { logger } from '../logger';
import type { RouteDefinition } from '../routes/definitions';
import { envelope } from './middlewares/envelope';
import { httpsOnly } from './middlewares/https-only';
import { rawInputLimits } from './middlewares/input-limits';
import { routeOperation } from './middlewares/operation';
import { parameters } from './middlewares/parameters';
import { requestState } from './middlewares/request-state';
import { tenantAndLanguage } from './middlewares/tenant-language';
import type { ApiEvent, ApiResult, AppContext, BusinessResult, RequestState } from './request-state';

// The chain's own answers: validation, limits, internal errors.
// The chain answers a malformed news id in a path with news_not_found (input-limits.ts).
useMessages(commonMessages, rateLimitMessages, newsLookupMessages);

export type BusinessHandler<S extends RequestState = RequestState> = (state: S) => Promise<BusinessResult>;

/**
 * The part of the Middy chain every function shares, up to the request's parameters; what follows (token auth,
 * the limits) depends on the kind of route: `createHandler` for routes with a token, `createPublicHandler` for
 * public ones, so a public function carries no token code. Order matters:
 * the envelope comes first so its `onError` sees every failure, and the language is known before anything
 * that can fail on the caller's input. Structural limits run before the body is parsed (size, path ids) and
 * as it is merged into `params` (depth, keys, numbers, control characters).
 */
export function requestChain(route: RouteDefinition) {
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
    .use(parameters());
}
