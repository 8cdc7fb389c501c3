import type { MiddlewareObj } from '@middy/core';
import { authenticate, type authenticateWith } from '../../domain/users/authentication';
import type { TokenSideRead } from '../../db/repositories/user-repository';
import type { TokenOwner } from '../../records/user';
import { DomainError } from '../../domain/errors';
import type { AuthKind } from '../../routes/definitions';
import type { ApiEvent, ApiResult, AppContext, RequestState } from '../request-state';
import { authenticateSession, type authenticateSessionWith, type SessionCaller } from '../../domain/console/session-auth';
import { consoleSessionCookie, csrfSatisfied } from '../console-session';

/**
 * Items a route reads in the same round trip as the token, named (none when the request names none), with the
 * reader that reads them beside the token: the route hands it in, so only the routes that read with the token
 * carry the BatchGetItem that does it.
 */
export interface ReadWithToken {
  reads: (state: RequestState) => Record<string, TokenSideRead> | undefined;
  authenticateWith: typeof authenticateWith;
  /** The same for a request made with a console session instead of a token. */
  authenticateSessionWith: typeof authenticateSessionWith;
  /**
   * Wraps the credential's check (`credential`: the token or the cookie, told apart by a prefix), for a route
   * that counts the owner it remembers beside it (shared/http/owner-count-ahead.ts).
   */
  around?: <T extends { owner: TokenOwner }>(state: RequestState, credential: string, check: () => Promise<T>) => Promise<T>;
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Identifies the token owner: `Authorization: Bearer` on management routes (a missing header is an invalid
 * token, code 10; an expired one code 11), the `token` parameter on device routes (missing → its own error,
 * code 12; invalid or expired → invalid). A token of another tenant than the host's is an unknown token there.
 * A request that carries no token at all (no Authorization header, no `token` parameter) but the console's
 * session cookie is the session's user's: a missing, ended or other tenant's session answers as an invalid
 * token (`session_expired`), and a write (any method but GET/HEAD; any method at all on a route that
 * `writesOnGet`) without the session's CSRF token in `X-CSRF-Token` is refused (403 `csrf_invalid`) before
 * anything is counted or changed. Tokens need no CSRF
 * token: a script's token is not sent by a browser on its own.
 * With `readWithToken`, the items the route names are read in the same BatchGetItem as the token or session
 * (saving the route a round trip) and handed to its business code in `state.readWithToken`, for it to check
 * they are the caller's before anything is answered or written.
 */
export function tokenAuth(kind: AuthKind, readWithToken?: ReadWithToken, writesOnGet = false): MiddlewareObj<ApiEvent, ApiResult, Error, AppContext> {
  return {
    name: 'tokenAuth',
    before: async ({ event, context }) => {
      if (kind === 'none') return;
      let token: string | undefined;
      const cookie = consoleSessionCookie(event);
      if (kind === 'bearer') {
        token = bearerToken(event.headers?.authorization);
        if (!token && cookie && event.headers?.authorization === undefined) return sessionAuth(context.app, cookie, readWithToken, writesOnGet);
        if (!token) throw new DomainError('token_invalid', 'token_invalid');
      } else {
        const param = context.app.params.token;
        token = typeof param === 'string' ? param.trim() : undefined;
        if (param === undefined && cookie) return sessionAuth(context.app, cookie, readWithToken, writesOnGet);
        if (!token) throw new DomainError('token_missing', 'token_missing');
      }
      try {
        const now = Math.floor(context.app.now / 1000);
        const tenantId = context.app.tenant.tenantId;
        const reads = readWithToken?.reads(context.app);
        const check = async () => (reads ? readWithToken!.authenticateWith(token, now, tenantId, reads) : { owner: await authenticate(token, now, tenantId), items: undefined });
        const { owner, items } = readWithToken?.around ? await readWithToken.around(context.app, `token:${token}`, check) : await check();
        context.app.user = owner;
        if (items) context.app.readWithToken = items;
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

/** The console session's user as the caller (see `tokenAuth`). */
async function sessionAuth(state: RequestState, cookie: string, readWithToken: ReadWithToken | undefined, writesOnGet: boolean): Promise<void> {
  const now = Math.floor(state.now / 1000);
  const client = { ip: state.ip, userAgent: state.event.headers?.['user-agent'] ?? '' };
  const reads = readWithToken?.reads(state);
  const check = async () => {
    const caller: SessionCaller & { items?: Record<string, Record<string, unknown> | null> } = reads
      ? await readWithToken!.authenticateSessionWith(cookie, now, state.tenant.tenantId, client, reads)
      : await authenticateSession(cookie, now, state.tenant.tenantId, client);
    // Refused before the rate limit counts it or the business code runs: nothing changes.
    if (!csrfSatisfied(state.event, caller.csrfToken, writesOnGet)) throw new DomainError('https_required', 'csrf_invalid');
    return caller;
  };
  const caller = readWithToken?.around ? await readWithToken.around(state, `session:${cookie}`, check) : await check();
  state.user = caller.owner;
  if (caller.items) state.readWithToken = caller.items;
}
