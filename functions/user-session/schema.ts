import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import { parseManagementParams } from '../../shared/validation/management-params';
import { text, codePoints } from '../../shared/validation/fields';
import { validationError } from '../../shared/domain/errors';
import { PASSWORD_LENGTH } from '../../shared/domain/console/passwords';

export const SESSION_ACTIONS = ['sign_in', 'sign_out', 'list', 'revoke', 'totp_setup', 'totp_confirm', 'totp_disable', 'rotate_token', 'accept_invite'] as const;

/** A password as typed: never trimmed (spaces are characters of it), within the bounds. */
const password = () => z.string().check(z.refine((s) => codePoints(s) >= 1 && codePoints(s) <= PASSWORD_LENGTH.max));
const newPassword = () => z.string().check(z.refine((s) => codePoints(s) >= PASSWORD_LENGTH.min && codePoints(s) <= PASSWORD_LENGTH.max));
const sixDigits = () => text(6, { min: 6 }).check(z.regex(/^\d{6}$/));
const opaque = () => text(128, { min: 1 }).check(z.regex(/^[A-Za-z0-9_-]+$/));

const action = { action: z.enum(SESSION_ACTIONS) };
const shapes = {
  sign_in: { ...action, login: text(254, { min: 1 }), password: password(), totp: z.optional(sixDigits()) },
  sign_out: action,
  list: action,
  revoke: { ...action, session_id: opaque() },
  totp_setup: action,
  totp_confirm: { ...action, code: sixDigits() },
  totp_disable: { ...action, password: password() },
  rotate_token: { ...action, password: password() },
  accept_invite: { ...action, invite: opaque(), password: newPassword() },
} as const;

export type SessionRequest =
  | { action: 'current' }
  | { action: 'sign_in'; login: string; password: string; totp: string | undefined }
  | { action: 'sign_out' | 'list' | 'totp_setup' }
  | { action: 'revoke'; sessionId: string }
  | { action: 'totp_confirm'; code: string }
  | { action: 'totp_disable' | 'rotate_token'; password: string }
  | { action: 'accept_invite'; invite: string; password: string };

/** GET: the current session, no parameters. POST: `action` says what, and each action takes its own fields. */
export function parseRequest({ params, event }: Pick<RequestState, 'params' | 'event'>): SessionRequest {
  if (event.httpMethod === 'GET') {
    parseManagementParams(params, { shape: {} });
    return { action: 'current' };
  }
  const named = params.action;
  if (named === undefined) throw validationError('invalid_value', ['action']);
  if (typeof named !== 'string' || !(SESSION_ACTIONS as readonly string[]).includes(named)) throw validationError('invalid_value', ['action']);
  const kind = named as (typeof SESSION_ACTIONS)[number];
  switch (kind) {
    case 'sign_in': {
      const p = parseManagementParams(params, { shape: shapes.sign_in });
      return { action: 'sign_in', login: p.login, password: p.password, totp: p.totp };
    }
    case 'revoke':
      return { action: 'revoke', sessionId: parseManagementParams(params, { shape: shapes.revoke }).session_id };
    case 'totp_confirm':
      return { action: 'totp_confirm', code: parseManagementParams(params, { shape: shapes.totp_confirm }).code };
    case 'totp_disable':
    case 'rotate_token':
      return { action: kind, password: parseManagementParams(params, { shape: shapes[kind] }).password };
    case 'accept_invite': {
      const p = parseManagementParams(params, { shape: shapes.accept_invite });
      return { action: 'accept_invite', invite: p.invite, password: p.password };
    }
    case 'sign_out':
    case 'list':
    case 'totp_setup':
      parseManagementParams(params, { shape: shapes[kind] });
      return { action: kind };
  }
}
