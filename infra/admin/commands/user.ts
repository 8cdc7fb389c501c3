import * as z from 'zod/mini';
import { nowSeconds } from '../../../shared/clock';
import { DEFAULT_TENANT_ID } from '../../../shared/records/tenant';
import { createUser, credit, expireToken, requireUser, rotateToken } from '../../../shared/domain/users/user-service';
import type { User } from '../../../shared/records/user';
import { flagInt, flagText, parseFlags, type Command } from '../cli-types';
import { userSubscription } from './plan';

const shown = (user: User) => ({ user_id: user.userId, tenant_id: user.tenantId, balance: user.balance });

export const userCommands: Record<string, Command> = {
  'user create': async (flags) => {
    const f = parseFlags(flags, { tenant: z.optional(flagText()), name: z.optional(flagText(100)), balance: z.optional(flagInt()) });
    const { user, token } = await createUser({ tenantId: f.tenant ?? DEFAULT_TENANT_ID, name: f.name, balance: f.balance }, nowSeconds());
    return { user_id: user.userId, tenant_id: user.tenantId, token };
  },
  'user show': async (flags) => {
    const user = await requireUser(parseFlags(flags, { user: flagText() }).user);
    return { ...shown(user), subscription: await userSubscription(user.userId) };
  },
  'user credit': async (flags) => {
    const f = parseFlags(flags, { user: flagText(), amount: flagInt({ min: 1 }), note: z.optional(flagText(200)) });
    return shown(await credit(f.user, f.amount, nowSeconds(), f.note));
  },
  'token rotate': async (flags) => ({ token: await rotateToken(parseFlags(flags, { user: flagText() }).user) }),
  'token expire': async (flags) => {
    const f = parseFlags(flags, { user: flagText() });
    const user = await expireToken(f.user, nowSeconds());
    return { user_id: user.userId, expires_at: user.tokenExpiresAt };
  },
};
