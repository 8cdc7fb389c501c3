import { fileURLToPath } from 'node:url';

/** The repository root: entry files, the lock file and the bundles' project root are resolved from it. */
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
