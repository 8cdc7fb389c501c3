import type { MiddlewareObj } from '@middy/core';
import { resolveTenantByHost } from '../../domain/tenants/host-tenant';
import { selectLanguage } from '../../i18n/negotiate';
import { DomainError } from '../../domain/errors';
import { isValidHost } from '../request-url';
import type { ApiEvent, ApiResult, AppContext } from '../request-state';

/** Resolves the tenant from `Host`, then the response language, whose last fallback is that tenant's default. */
export function tenantAndLanguage(): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext> {
  return {
    name: 'tenantAndLanguage',
    before: async ({ event, context }) => {
      const headers = event.headers ?? {};
      context.app.tenant = await resolveTenantByHost(headers.host);
      context.app.lang = selectLanguage({ xLang: headers['x-lang'], acceptLanguage: headers['accept-language'], tenantDefault: context.app.tenant.defaultLang });
      // A Host no URL can carry (`1.2.3.4.5`, `999.1.1.1`, `x:99999`) is the caller's mistake: 400, never a 500
      // from building a link on it. Checked once the language is known, so the refusal speaks it.
      if (headers.host !== undefined && !isValidHost(headers.host)) throw new DomainError('malformed_input', 'invalid_value', { fields: ['Host'] });
    },
  };
}
