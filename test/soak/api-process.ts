/**
 * The soak's API process: the local runtime's API server and background jobs, as `npm start` runs them, in a
 * process of its own so the soak can kill it mid-request (SIGKILL, as a Lambda timeout ends a function) and
 * start it again on the same port. Configuration comes from the environment the soak passes; it prints one
 * line, `ready <url>`, once it serves.
 */
import { startApiServer } from '../../infra/local/api-server';
import { startBackgroundJobs } from '../../infra/local/background-jobs';

const port = Number(process.env.PORT);
const api = await startApiServer(port);
// Faster than under `npm start`, so review adds finish and stale holds are swept within a short run.
startBackgroundJobs({ workerEveryMs: 2_000, sweepEveryMs: 15_000, linkHealthEveryMs: 10_000 });
process.stdout.write(`ready ${api.url}\n`);
