/**
 * Stored items and answers name their attributes as the snake_case of the domain record's fields
 * (`appsPerSource` is `apps_per_source`, the contract's spelling). A repository or a view lists the record's
 * fields once and gets both directions from that list, instead of writing the same mapping twice by hand; it
 * adds only what is not a plain rename (nested values, defaults, index keys).
 */

/** `appsPerSource` → `apps_per_source`, as a type. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}` ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}` : '';

/** `T` with each field under its snake_case name (the item that stores it), optional where the field is. */
export type SnakeCased<T> = { [K in keyof T & string as SnakeCase<K>]: T[K] };

/** `appsPerSource` → `apps_per_source`. */
export const snakeCase = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export interface SnakeCaseFields<T> {
  /** `record` under snake_case names; fields that are undefined are left out (DynamoDB stores no undefined). */
  toSnake(record: T): SnakeCased<T>;
  /** The record `item` holds; attributes outside the list (keys of indexes, markers) are not carried over. */
  fromSnake(item: Partial<SnakeCased<T>>): T;
}

/**
 * The converter for the listed fields of `T`: `snakeCaseFields<Plan>()(['planId', 'name', …])`. Called in two
 * steps so `T` is given and the field list is checked against it.
 */
export function snakeCaseFields<T extends object>() {
  return <const K extends keyof T & string>(fields: readonly K[]): SnakeCaseFields<Pick<T, K>> => {
    const names = fields.map((field) => [field, snakeCase(field)] as const);
    /** Copies each listed value from its name at `from` (0 the field, 1 the attribute) to the other name. */
    const rename = (record: object, from: 0 | 1) => {
      const out: Record<string, unknown> = {};
      for (const pair of names) {
        const value = (record as Record<string, unknown>)[pair[from]];
        if (value !== undefined) out[pair[1 - from]!] = value;
      }
      return out;
    };
    return {
      toSnake: (record) => rename(record, 0) as SnakeCased<Pick<T, K>>,
      fromSnake: (item) => rename(item, 1) as Pick<T, K>,
    };
  };
}
