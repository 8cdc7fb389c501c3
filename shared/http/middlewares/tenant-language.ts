import type { MiddlewareObj } from '@middy/core';
import { resolveTenantByHost } from '../../domain/tenants/host-tenant';
import { selectLanguage } from '../../i18n/negotiate';
import type { ApiEvent, ApiResult, AppContext } from '../request-state';

/** Resolves the tenant from `Host`, then the response language, whose last fallback is that tenant's default. */
export function tenantAndLanguage(): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext> {
  return {
    name: 'tenantAndLanguage',
    before: async ({ event, context }) => {
      const headers = event.headers ?? {};
      context.app.tenant = await resolveTenantByHost(headers.host);
      context.app.lang = selectLanguage({ xLang: headers['x-lang'], acceptLanguage: headers['accept-language'], tenantDefault: context.app.tenant.defaultLang });
    },
  };
}
