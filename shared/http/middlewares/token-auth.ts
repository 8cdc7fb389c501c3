import type { MiddlewareObj } from '@middy/core';
import { authenticate, type authenticateWith } from '../../domain/users/authentication';
import type { TokenSideRead } from '../../db/repositories/user-repository';
import { DomainError } from '../../domain/errors';
import type { AuthKind } from '../../routes/definitions';
import type { ApiEvent, ApiResult, AppContext, RequestState } from '../request-state';

/**
 * Items a route reads in the same round trip as the token, named (none when the request names none), with the
 * reader that reads them beside the token: the route hands it in, so only the routes that read with the token
 * carry the BatchGetItem that does it.
 */
export interface ReadWithToken {
  reads: (state: RequestState) => Record<string, TokenSideRead> | undefined;
  authenticateWith: typeof authenticateWith;
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Identifies the token owner: `Authorization: Bearer` on management routes (a missing header is an invalid
 * token, code 10; an expired one code 11), the `token` parameter on device routes (missing → its own error,
 * code 12; invalid or expired → invalid). A token of another tenant than the host's is an unknown token there.
 * With `readWithToken`, the items the route names are read in the same BatchGetItem as the token (saving the
 * route a round trip) and handed to its business code in `state.readWithToken`, for it to check they are the
 * caller's before anything is answered or written.
 */
export function tokenAuth(kind: AuthKind, readWithToken?: ReadWithToken): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext> {
  return {
    name: 'tokenAuth',
    before: async ({ event, context }) => {
      if (kind === 'none') return;
      let token: string | undefined;
      if (kind === 'bearer') {
        token = bearerToken(event.headers?.authorization);
        if (!token) throw new DomainError('token_invalid', 'token_invalid');
      } else {
        const param = context.app.params.token;
        token = typeof param === 'string' ? param.trim() : undefined;
        if (!token) throw new DomainError('token_missing', 'token_missing');
      }
      try {
        const now = Math.floor(context.app.now / 1000);
        const tenantId = context.app.tenant.tenantId;
        const reads = readWithToken?.reads(context.app);
        if (reads) {
          const { owner, items } = await readWithToken!.authenticateWith(token, now, tenantId, reads);
          context.app.user = owner;
          context.app.readWithToken = items;
        } else {
          context.app.user = await authenticate(token, now, tenantId);
        }
      } catch (error) {
        // The device and add contracts know one token failure, "Invalid token" (code 10 / code 0), which covers
        // expiry; only the management routes tell an expired token apart (code 11).
        if (kind === 'token' && error instanceof DomainError && error.kind === 'token_expired') {
          throw new DomainError('token_invalid', 'token_invalid', { data: { expired: true } });
        }
        throw error;
      }
    },
  };
}
