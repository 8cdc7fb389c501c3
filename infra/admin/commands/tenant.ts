import * as z from 'zod/mini';
import { nowSeconds } from '../../../shared/clock';
import { createTenant } from '../../../shared/domain/tenants/tenant-service';
import { USAGE_PLAN_ENV } from '../../cdk/stack-outputs';
import { flagText, parseFlags, type Command } from '../cli-types';

export const tenantCommands: Record<string, Command> = {
  'tenant create': async (flags) => {
    const f = parseFlags(flags, { name: flagText(100), domain: z.optional(flagText(253)), lang: z.optional(flagText(10)) });
    // Against a stack (--stack, or USAGE_PLAN_ID set by hand) the tenant gets its own key in the usage plan;
    // locally there is no plan and the tenant has none.
    const usagePlanId = process.env[USAGE_PLAN_ENV];
    const provisionApiKey = usagePlanId
      ? async (tenantId: string) => (await import('../usage-plan-keys')).createTenantApiKey(tenantId, usagePlanId)
      : undefined;
    const tenant = await createTenant({ name: f.name, domain: f.domain, lang: f.lang }, nowSeconds(), provisionApiKey);
    return { tenant_id: tenant.tenantId };
  },
};
