/**
 * `npm run bench:latency [-- [name-filter …] [--iterations N] [--json]]`: runs every `test/bench/*.bench.ts` against
 * the local runtime on DynamoDB Local and prints latency and DynamoDB calls per iteration. Uses
 * DYNAMODB_ENDPOINT when set, otherwise starts its own DynamoDB Local.
 */
import { readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
// The benches and the soak call the domain directly too: the stores every function wires.
import '../../shared/stores/all';
import { dirname, join } from 'node:path';
import { startDynamoDbLocal, type RunningDynamoDb } from '../../infra/local/dynamodb-local';
import { freePort } from '../../infra/local/free-port';
import { startTestApi } from '../support/api';
import { formatReport, instrumentDynamoDb, sample, summarize, type BenchReport, type Benchmark, type IterationSample } from './harness';

// Benchmarks measure the service, not its log output.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { iterations: { type: 'string' }, json: { type: 'boolean', default: false } },
});
const iterationOverride = values.iterations === undefined ? undefined : Number(values.iterations);
if (iterationOverride !== undefined && !(Number.isInteger(iterationOverride) && iterationOverride > 0)) {
  console.error('--iterations must be a positive integer');
  process.exit(2);
}

const here = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => positionals.length === 0 || positionals.some((p) => f.includes(p)))
  .sort();
if (files.length === 0) {
  console.error(`No bench file matches ${positionals.join(' ')}`);
  process.exit(2);
}

let dynamo: RunningDynamoDb | undefined;
if (!process.env.DYNAMODB_ENDPOINT) {
  dynamo = await startDynamoDbLocal(await freePort());
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
}

const reports: BenchReport[] = [];
try {
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(here, file)).href)) as { benchmarks?: Benchmark[] };
    if (!Array.isArray(mod.benchmarks)) throw new Error(`${file} must export \`benchmarks: Benchmark[]\``);
    const api = await startTestApi();
    const tablePrefix = process.env.TABLE_PREFIX ?? '';
    instrumentDynamoDb();
    try {
      for (const bench of mod.benchmarks) {
        const step = await bench.prepare({ api });
        const iterations = iterationOverride ?? bench.iterations;
        const samples: IterationSample[] = [];
        // Iteration 0 is not kept: it pays module loading and connection set-up, which a deployed function
        // pays once per container, not per request.
        for (let i = 0; i <= iterations; i++) {
          const taken = await sample(() => step(i));
          if (i > 0) samples.push(taken);
        }
        const report = summarize(file, bench.name, samples, tablePrefix, bench.rowsPerIteration);
        reports.push(report);
        if (!values.json) console.log(`${formatReport(report)}\n`);
      }
    } finally {
      await api.close();
    }
  }
  if (values.json) console.log(JSON.stringify(reports, null, 2));
} finally {
  await dynamo?.stop();
}
