import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { rotatedToken, revoked, sessionData, sessionList, signedOut, totpSetupData } from '../../shared/contracts/console-session-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';
import { SESSION_ACTIONS } from './schema';

export const contract: FunctionContract = {
  request: z.object({
    action: describe(z.optional(z.enum(SESSION_ACTIONS)), 'POST: what to do (GET takes no parameters: it answers the current session)'),
    login: describe(z.optional(z.string()), 'sign_in: the login name or e-mail (case does not matter)'),
    password: describe(z.optional(z.string()), 'sign_in, totp_disable, rotate_token: the password; accept_invite: the new password (10–200 characters)'),
    totp: describe(z.optional(z.string()), 'sign_in: the 6-digit code, when the user has TOTP on (without it: totp_required)'),
    code: describe(z.optional(z.string()), 'totp_confirm: a 6-digit code from the secret of totp_setup'),
    session_id: describe(z.optional(z.string()), 'revoke: the session to end'),
    invite: describe(z.optional(z.string()), 'accept_invite: the token of the invitation link (after /console/#/invite/)'),
  }),
  response: z.union([sessionData, sessionList, totpSetupData, rotatedToken, signedOut, revoked]),
  errors: ['token_invalid'],
  sessionWrites: true,
  notes: [
    'A person signs in here and the answer sets the console_session cookie (HttpOnly, Secure, SameSite=Strict, Path=/; Max-Age until the absolute end): with it, every bearer and token route of the API accepts the request without a token, as the session user\'s, and every write (any method but GET/HEAD; any request to the add routes and device status, which change things on a GET too) must carry the session\'s csrf_token in X-CSRF-Token (else 403 csrf_invalid, nothing changed). Sessions end after 12 hours unused or 7 days after sign-in.',
    'Refusals: sign_in_failed (401, code 10; one answer for an unknown login, a wrong password and a wrong or replayed TOTP code); totp_required (400, fields [totp]); account_locked (429, data.locked_until: 5 failures in a calendar quarter hour lock the account until it ends); too_many_attempts (429: 20 failures a minute from one IP); session_expired (401, code 10) without a live session. Every action but sign_in and accept_invite needs the session and, being a POST, its X-CSRF-Token.',
  ].join('\n\n'),
};
