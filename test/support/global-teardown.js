import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  await globalThis.__dynamo__?.stop();
  if (globalThis.__openapiDir__) rmSync(globalThis.__openapiDir__, { recursive: true, force: true });
}
