import '../shared/observability/no-metrics';
import { buildConsole } from '../infra/tooling/console-build';
import { main } from '../infra/local/start';

// The console's web app is built here when its sources changed (a second or two; skipped when up to date).
await buildConsole({ quiet: true });
await main();
