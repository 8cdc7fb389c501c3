/**
 * Records keyed by names a caller chooses (parameters, headers, query keys, CLI flags, import columns). A
 * plain object answers for the names it inherits — `toString`, `valueOf`, `constructor`, `__proto__` … — as if
 * someone had set them, so `name in obj` or `obj[name]` on one turns a caller's odd key into a "known" one.
 * These records have no prototype: a name is there only when it was put there, and `__proto__` is a key
 * like any other.
 */
export function ownRecord<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const record = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) record[key] = value;
  return record;
}

/** `record[key]` when the record itself holds `key`; never an inherited member. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
