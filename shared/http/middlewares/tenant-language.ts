import type { MiddlewareObj } from '@middy/core';
import { resolveTenantByHost } from '../../db/repositories/tenant-repository';
import { selectLanguage } from '../../i18n/negotiate';
import type { ApiEvent, ApiResult, AppContext } from '../request-state';

/**
 * Resolves the tenant from `Host` and then the response language, whose last fallback is that tenant's
 * default. The language is chosen from the headers first, so even a failed tenant lookup answers in the
 * caller's language.
 */
export function tenantAndLanguage(): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext> {
  return {
    name: 'tenantAndLanguage',
    before: async ({ event, context }) => {
      const headers = event.headers ?? {};
      const inputs = { xLang: headers['x-lang'], acceptLanguage: headers['accept-language'] };
      context.app.lang = selectLanguage(inputs);
      context.app.tenant = await resolveTenantByHost(headers.host);
      context.app.lang = selectLanguage({ ...inputs, tenantDefault: context.app.tenant.defaultLang });
    },
  };
}
