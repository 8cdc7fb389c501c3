import type { MiddlewareObj } from '@middy/core';
import { DomainError } from '../../domain/errors';
import { localize } from '../../i18n/localize';
import { logger } from '../../logger';
import type { RouteDefinition } from '../../routes/definitions';
import { codeFor, INTERNAL_ERROR } from '../error-codes';
import { bodyParserError } from './parameters';
import { errorPage } from '../error-page';
import type { ApiEvent, ApiResult, AppContext, BusinessResult, RequestState } from '../request-state';

function respond(state: RequestState, statusCode = 200, body: unknown): ApiResult {
  return {
    statusCode,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Language': state.lang,
      'Cache-Control': 'no-store',
      // Every answer is JSON; browsers must never guess otherwise (a JSON body echoing text as HTML).
      'X-Content-Type-Options': 'nosniff',
      ...state.responseHeaders,
    },
    body: JSON.stringify(body),
  };
}

function envelopeBody(state: RequestState, code: number, msg: string, data: Record<string, unknown>, ok: boolean) {
  const body: Record<string, unknown> = { code, msg, time: Math.floor(state.now / 1000), data };
  if (state.envelope === 'device' || state.envelope === 'add') {
    body.ip = state.ip;
    body.ysucc = ok ? 'Ysucc' : 'Yerror';
  }
  return body;
}

/**
 * Shapes every answer: success as `code 1`, a DomainError as its route's code with a localized `msg` and
 * `data.error`, anything else as a 500 envelope that names nothing internal (the details go to the log).
 */
export function envelope(route: RouteDefinition): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext> {
  return {
    name: 'envelope',
    after: (request) => {
      const state = request.context.app;
      const result = request.response as unknown as BusinessResult;
      if ('raw' in result) {
        const response = respond(state, result.statusCode, result.raw);
        request.response = { ...response, headers: { ...response.headers, ...result.headers }, body: result.text ?? response.body, ...(result.base64 ? { isBase64Encoded: true } : {}) };
        return;
      }
      const message = result.message ?? { key: 'ok' };
      request.response = respond(state, result.statusCode, envelopeBody(state, 1, localize(state.lang, message.key, message.params), result.data, true));
    },
    onError: (request) => {
      const state = request.context.app;
      const error = request.error instanceof DomainError ? request.error : bodyParserError(request.error);
      if (!error) {
        logger.error('Unhandled error', { route: route.path, error: request.error as Error });
        request.response = respond(state, INTERNAL_ERROR.status, envelopeBody(state, INTERNAL_ERROR.code, localize(state.lang, 'internal_error'), { error: 'internal_error' }, false));
        return;
      }
      if (error.kind === 'unavailable') logger.error('Dependency unavailable', { route: route.path, error: error.cause as Error });
      const { code, status } = codeFor(state.envelope, error.kind);
      if (state.envelope === 'page') {
        request.response = errorPage(state, status, localize(state.lang, error.messageKey ?? error.reason, error.params), error.reason);
        return;
      }
      const data: Record<string, unknown> = { error: error.reason, ...error.data };
      if (error.fields) data.fields = error.fields;
      request.response = respond(state, status, envelopeBody(state, code, localize(state.lang, error.messageKey ?? error.reason, error.params), data, false));
    },
  };
}
