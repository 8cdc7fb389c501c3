import * as z from 'zod/mini';
import { nowSeconds } from '../../../shared/clock';
import { createTenant } from '../../../shared/domain/tenants/tenant-service';
import { flagText, parseFlags, type Command } from '../cli-types';

export const tenantCommands: Record<string, Command> = {
  'tenant create': async (flags) => {
    const f = parseFlags(flags, { name: flagText(100), domain: z.optional(flagText(253)), lang: z.optional(flagText(10)) });
    const tenant = await createTenant({ name: f.name, domain: f.domain, lang: f.lang }, nowSeconds());
    return { tenant_id: tenant.tenantId };
  },
};
