/**
 * The base of every error the functions and the operator CLI raise on purpose. `kind` is what went wrong in
 * the terms callers branch on; `reason` is the stable snake_case word an answer carries as `data.error` (the
 * HTTP envelope maps `DomainError`, the CLI maps every one); `message` is for logs and operators.
 *
 * Each subclass names itself (`name`), so logs tell them apart in minified bundles too.
 */
export abstract class ServiceError<Kind extends string = string, Reason extends string = string> extends Error {
  abstract override readonly name: string;

  constructor(
    readonly kind: Kind,
    readonly reason: Reason,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }
}
