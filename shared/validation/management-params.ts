import * as z from 'zod/mini';
import { DomainError, validationError } from '../domain/errors';
import { failedFields } from './fields';

/** Fields only an administrator may set; the management endpoints refuse them outright. */
export const ADMIN_ONLY_FIELDS = ['uid', 'tenant_id', 'is_official', 'expire_time', 'expires_at', 'expired_at', 'dqtime'] as const;

export interface ParamRules<S extends z.core.$ZodShape> {
  shape: S;
  readOnly?: readonly string[];
  /** Refuse a request that supplies none of the writable fields. */
  requireOne?: boolean;
}

/**
 * Validates management parameters in the order a caller can fix them: administrator-only fields, then
 * read-only ones, then unknown ones, then an empty update, then the values themselves. Each failure names
 * every offending field of its kind.
 */
export function parseManagementParams<S extends z.core.$ZodShape>(params: Record<string, unknown>, rules: ParamRules<S>): z.infer<z.ZodMiniObject<S>> {
  const keys = Object.keys(params);
  const admin = keys.filter((k) => (ADMIN_ONLY_FIELDS as readonly string[]).includes(k));
  if (admin.length) throw validationError('admin_field', admin);
  const readOnly = keys.filter((k) => rules.readOnly?.includes(k));
  if (readOnly.length) throw validationError('read_only_field', readOnly);
  // Own keys only: `in` would count `toString`, `valueOf`, `hasOwnProperty`… as fields of every shape.
  const unknown = keys.filter((k) => !Object.hasOwn(rules.shape, k));
  if (unknown.length) throw validationError('unknown_field', unknown);
  if (rules.requireOne && keys.length === 0) throw new DomainError('validation', 'empty_update', { fields: [] });
  const parsed = z.object(rules.shape).safeParse(params);
  if (!parsed.success) throw validationError('invalid_value', failedFields(parsed.error));
  return parsed.data;
}

/** Only the fields the caller supplied. */
export function supplied<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
