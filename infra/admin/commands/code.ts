import * as z from 'zod/mini';
import { nowSeconds } from '../../../shared/clock';
import { ACCOUNT_MODES } from '../../../shared/records/account';
import { createCode } from '../../../shared/domain/pricing/activation-codes';
import { flagInt, flagText, parseFlags, type Command } from '../cli-types';

export const codeCommands: Record<string, Command> = {
  'code create': async (flags) => {
    const f = parseFlags(flags, { user: flagText(), mode: z.enum(ACCOUNT_MODES), warranty: z.optional(flagInt()) });
    const code = await createCode({ userId: f.user, mode: f.mode, tier: f.warranty ?? 0 }, nowSeconds());
    return { code: code.code, tenant_id: code.tenantId, mode: code.mode, warranty: code.tier };
  },
};
