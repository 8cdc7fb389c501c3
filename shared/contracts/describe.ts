import * as z from 'zod/mini';

/** Attaches a description the OpenAPI document shows (zod/mini keeps metadata in a registry). */
export function describe<T extends z.ZodMiniType>(schema: T, description: string): T {
  (z.globalRegistry as unknown as { add(s: z.ZodMiniType, meta: { description: string }): void }).add(schema, { description });
  return schema;
}
