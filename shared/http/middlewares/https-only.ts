import type { MiddlewareObj } from '@middy/core';
import { DomainError } from '../../domain/errors';
import type { ApiEvent, ApiResult, AppContext } from '../request-state';

/** API Gateway terminates TLS and reports the scheme; a request that arrived over plain HTTP is refused. */
export function httpsOnly(): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext> {
  return {
    name: 'httpsOnly',
    before: ({ event }) => {
      if (event.headers?.['x-forwarded-proto']?.toLowerCase() === 'http') throw new DomainError('https_required', 'https_required');
    },
  };
}
