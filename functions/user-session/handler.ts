import { createPublicHandler } from '../../shared/http/create-public-handler';
import { userSessionRoute } from '../../shared/routes/account';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { consoleAuthMessages } from '../../shared/i18n/messages/console-auth';
import { consoleSessionMessages } from '../../shared/i18n/messages/console-session';
import { tokenMessages } from '../../shared/i18n/messages/token';
import { DomainError } from '../../shared/domain/errors';
import { requireSession, SESSION_ABSOLUTE_SECONDS } from '../../shared/domain/console/sessions';
import { acceptInvite, confirmTotpSetup, disableTotp, listSessions, personOf, revokeSession, rotateApiToken, sessionAnswer, setUpTotp, signIn, signOut } from '../../shared/domain/console/console-auth';
import { consoleCookieHeader, consoleSessionCookie, csrfSatisfied } from '../../shared/http/console-session';
import type { RequestState } from '../../shared/http/request-state';
import { parseRequest } from './schema';

// token_invalid: the kind of sign_in_failed and session_expired (their own messages are what is answered).
useMessages(managementMessages, tokenMessages, consoleSessionMessages, consoleAuthMessages);

const clientOf = (state: RequestState) => ({ ip: state.ip, userAgent: state.event.headers?.['user-agent'] ?? '' });

/** The session the request's cookie names; a POST also needs its CSRF token. */
async function currentSession(state: RequestState) {
  const session = await requireSession(consoleSessionCookie(state.event), state.tenant.tenantId, Math.floor(state.now / 1000), clientOf(state));
  if (!csrfSatisfied(state.event, session.csrfToken)) throw new DomainError('https_required', 'csrf_invalid');
  return session;
}

export const handler = createPublicHandler(userSessionRoute, async (state) => {
  const request = parseRequest(state);
  const now = Math.floor(state.now / 1000);
  switch (request.action) {
    case 'sign_in':
    case 'accept_invite': {
      const { cookie, answer } =
        request.action === 'sign_in'
          ? await signIn({ tenantId: state.tenant.tenantId, login: request.login, password: request.password, totp: request.totp }, clientOf(state), state.now)
          : await acceptInvite(state.tenant.tenantId, request.invite, request.password, clientOf(state), state.now);
      state.responseHeaders['Set-Cookie'] = consoleCookieHeader(cookie, SESSION_ABSOLUTE_SECONDS);
      return { data: answer };
    }
    case 'current': {
      const session = await currentSession(state);
      return { data: sessionAnswer(session, await personOf(session.userId)) };
    }
    case 'sign_out': {
      await signOut(await currentSession(state));
      state.responseHeaders['Set-Cookie'] = consoleCookieHeader('', 0);
      return { data: { signed_out: true } };
    }
    case 'list': {
      const session = await currentSession(state);
      return { data: { items: await listSessions(session.userId, session, now) } };
    }
    case 'revoke': {
      const session = await currentSession(state);
      await revokeSession(session.userId, request.sessionId);
      if (request.sessionId === session.sessionId) state.responseHeaders['Set-Cookie'] = consoleCookieHeader('', 0);
      return { data: { revoked: request.sessionId } };
    }
    case 'totp_setup': {
      const session = await currentSession(state);
      return { data: await setUpTotp(session.userId, state.tenant.name) };
    }
    case 'totp_confirm': {
      const session = await currentSession(state);
      return { data: sessionAnswer(session, await confirmTotpSetup(session.userId, request.code, state.now)) };
    }
    case 'totp_disable': {
      const session = await currentSession(state);
      return { data: sessionAnswer(session, await disableTotp(session.userId, request.password, state.now)) };
    }
    case 'rotate_token': {
      const session = await currentSession(state);
      return { data: { token: await rotateApiToken(session.userId, request.password, state.now) } };
    }
  }
});
