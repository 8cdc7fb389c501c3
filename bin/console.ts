/**
 * `npm run build:console`: builds the reseller console (functions/console/web/dist) whether or not it is up to
 * date. `npm run build:console -- --types` writes only its API types (the type-check runs that first).
 */
import { buildConsole, buildConsoleApiTypes } from '../infra/tooling/console-build';

if (process.argv.includes('--types')) await buildConsoleApiTypes();
else await buildConsole({ force: !process.argv.includes('--if-stale') });
