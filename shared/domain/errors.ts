import type { MessageKey, MessageParams } from '../i18n/localize';
import { ServiceError } from '../service-error';

/**
 * What went wrong, independent of HTTP. The HTTP layer maps a kind to the code and status of the route's
 * envelope (see shared/http/error-codes.ts); `reason` is the stable snake_case `data.error` and also the
 * message key, so every reason has a translated message.
 */
export type ErrorKind =
  | 'validation'
  /** Structurally unacceptable input (depth, keys, numbers, control characters): HTTP 400 on every route. */
  | 'malformed_input'
  /** A body over the size limit: HTTP 413 on every route. */
  | 'too_large'
  | 'token_missing'
  | 'token_invalid'
  | 'token_expired'
  /** Refused for how it was sent (HTTP 403 everywhere): over plain HTTP; a console session's write without its CSRF token. */
  | 'https_required'
  | 'source_not_found'
  | 'app_not_found'
  /** A news item missing in the source (the news API). */
  | 'news_not_found'
  | 'conflict'
  | 'device_selector_missing'
  | 'device_ambiguous'
  | 'invalid_action'
  | 'device_not_found'
  /** An agent id that is not one of the caller's own agents (shared/domain/agents). */
  | 'agent_not_found'
  | 'add_failed'
  | 'download_refused'
  /** An unlock code that cannot unlock (unknown, used by another device) or a bad UDID with it. */
  | 'unlock_refused'
  | 'rate_limited'
  | 'unavailable';

export interface DomainErrorOptions {
  /** Offending parameter names (validation). */
  fields?: string[];
  /** Values for the message's placeholders. */
  params?: MessageParams;
  /** Extra machine-readable data for the envelope's `data`. */
  data?: Record<string, unknown>;
  /** The message to show when it is not the reason's own (one reason, several wordings). */
  messageKey?: MessageKey;
  cause?: unknown;
}

export class DomainError extends ServiceError<ErrorKind, MessageKey> {
  override readonly name = 'DomainError';
  readonly fields: string[] | undefined;
  readonly params: MessageParams;
  readonly data: Record<string, unknown>;
  readonly messageKey: MessageKey | undefined;

  constructor(kind: ErrorKind, reason: MessageKey, options: DomainErrorOptions = {}) {
    super(kind, reason, `${kind}: ${reason}`, options);
    const fields = options.fields?.map(reportableField);
    this.fields = fields;
    this.params = { ...(fields ? { fields: fields.join(', ') } : {}), ...options.params };
    this.data = options.data ?? {};
    this.messageKey = options.messageKey;
  }
}

/** A caller's parameter name, or `(unnamed)` when it is not one we would name: errors never echo input back. */
export function reportableField(name: string): string {
  return /^[A-Za-z0-9_]{1,40}$/.test(name) ? name : '(unnamed)';
}

export function validationError(reason: MessageKey, fields: string[]): DomainError {
  return new DomainError('validation', reason, { fields });
}

/** Why the service refuses an operator's request, and what kind of refusal that is. */
const ruleKinds = {
  user_not_found: 'not_found',
  tenant_not_found: 'not_found',
  source_not_found: 'not_found',
  lang_unsupported: 'invalid',
  udid_invalid: 'invalid',
  kid_invalid: 'invalid',
  warranty_invalid: 'invalid',
  tier_not_sold: 'invalid',
  tiers_not_offered: 'invalid',
  private_account_without_user: 'invalid',
  public_account_with_user: 'invalid',
  user_outside_tenant: 'invalid',
  domain_taken: 'conflict',
  kid_taken: 'conflict',
  plan_not_found: 'not_found',
  plan_taken: 'conflict',
  subscription_not_found: 'not_found',
  ledger_exists: 'conflict',
  agent_not_found: 'not_found',
  login_taken: 'conflict',
  login_required: 'invalid',
  email_invalid: 'invalid',
  host_required: 'invalid',
  storefront_no_domain: 'invalid',
  storefront_domain_taken: 'conflict',
} as const;

export type RuleReason = keyof typeof ruleKinds;

/**
 * A refusal of an operator's request (CLI, local seed). No HTTP caller meets these, so the message is plain
 * English, and it names no CLI flag: the CLI adds its flag hints by `reason`.
 */
export class RuleError extends ServiceError<(typeof ruleKinds)[RuleReason], RuleReason> {
  override readonly name = 'RuleError';

  constructor(reason: RuleReason, message: string) {
    super(ruleKinds[reason], reason, message);
  }
}
