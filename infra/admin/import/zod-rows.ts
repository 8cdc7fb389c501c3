/**
 * Helpers for import row schemas (zod/mini): cells arrive as text or absent, and every failure becomes a
 * `RowError` naming the column.
 */
import * as z from 'zod/mini';
import type { RowError } from './runner';

/** An optional cell, trimmed, checked with a domain predicate; the message is what the operator reads. */
export const checkedCell = (ok: (value: string) => boolean, message: string) => z.optional(z.string().check(z.trim(), z.refine(ok, message)));

/** A required cell, trimmed, checked the same way. */
export const requiredCell = (ok: (value: string) => boolean, message: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? 'is required' : message) }).check(z.trim(), z.refine(ok, message));

/** An optional cell converted by `convert`, which returns `undefined` for "absent" and throws a message. */
export const convertedCell = <T>(convert: (value: string) => T) =>
  z.optional(
    z.pipe(
      z.string(),
      z.transform((value, ctx) => {
        try {
          return convert(value.trim());
        } catch (error) {
          ctx.issues.push({ code: 'custom', message: error instanceof Error ? error.message : String(error), input: value });
          return z.NEVER;
        }
      }),
    ),
  );

export function rowErrors(line: number, error: z.core.$ZodError): RowError[] {
  return error.issues.map((issue) => ({ line, column: issue.path[0] === undefined ? null : String(issue.path[0]), reason: issue.message }));
}
