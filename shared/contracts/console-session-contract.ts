/** What `/api/user/session` (signing in as a person) takes and answers, for the OpenAPI document. */
import * as z from 'zod/mini';
import { describe } from './describe';

const person = z.object({
  user_id: z.string(),
  name: describe(z.string(), "The user's name (their login when they have none)"),
  login: describe(z.string(), 'The name they sign in with'),
  email: describe(z.optional(z.string()), 'The e-mail they may sign in with instead'),
  totp_enabled: describe(z.boolean(), 'Whether sign-in asks for a TOTP code'),
});

export const sessionData = z.object({
  session_id: describe(z.string(), 'The public id of this session (list, revoke)'),
  csrf_token: describe(z.string(), 'Send it as X-CSRF-Token with every write made with this session'),
  expires_at: describe(z.string(), 'ISO time the session ends unless used again (12 hours idle; moved on by use)'),
  absolute_expires_at: describe(z.string(), 'ISO time the session ends whatever happens (7 days after sign-in)'),
  user: person,
});

export const sessionList = z.object({
  items: z.array(
    z.object({
      session_id: z.string(),
      created_at: describe(z.string(), 'ISO time of sign-in'),
      last_seen_at: describe(z.string(), 'ISO time last used (kept to within 5 minutes)'),
      expires_at: z.string(),
      ip: z.string(),
      user_agent: z.string(),
      current: describe(z.boolean(), 'The session making this request'),
    }),
  ),
});

export const totpSetupData = z.object({
  secret: describe(z.string(), 'The TOTP secret, base32 (for typing into an authenticator app)'),
  otpauth_uri: describe(z.string(), 'otpauth://totp/… for a QR code; active only once a code from it is confirmed (totp_confirm)'),
});

export const rotatedToken = z.object({ token: describe(z.string(), 'The new API token: shown in this answer only; the old one is refused from now on') });

export const signedOut = z.object({ signed_out: z.boolean() });
export const revoked = z.object({ revoked: describe(z.string(), 'The session id ended') });
