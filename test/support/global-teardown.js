import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  await globalThis.__dynamo__?.stop();
  if (globalThis.__runDir__) rmSync(globalThis.__runDir__, { recursive: true, force: true });
}
