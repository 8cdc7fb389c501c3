/**
 * `npm run soak -- [--minutes 10] [--concurrency 8] [--users 4] [--rate N] [--record | --no-record]`: the whole product
 * under mixed traffic and faults, then the reconciliation (see test/README.md, "The soak"). Exits 1 naming
 * every violated invariant. A run of 10 minutes or more (or any with `--record`) writes its summary, date,
 * commit and machine into the results page and its headline into the README (`results-page.ts`).
 */
import { parseArgs } from 'node:util';
// The benches and the soak call the domain directly too: the stores every function wires.
import '../../shared/stores/all';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, concurrency: { type: 'string', default: '8' }, users: { type: 'string', default: '4' }, rate: { type: 'string' }, record: { type: 'boolean' }, 'no-record': { type: 'boolean' } },
});
const minutes = Number(values.minutes);
const concurrency = Number(values.concurrency);
const usersPerTenant = Number(values.users);
const requestsPerSecond = values.rate === undefined ? undefined : Number(values.rate);
if (!(minutes > 0) || !Number.isInteger(concurrency) || concurrency < 1 || !Number.isInteger(usersPerTenant) || usersPerTenant < 2 || (requestsPerSecond !== undefined && !(requestsPerSecond > 0))) {
  console.error('Usage: npm run soak -- [--minutes N (> 0)] [--concurrency N (≥ 1)] [--users N per tenant (≥ 2)] [--rate N requests a second at most (> 0)] [--record | --no-record]');
  process.exit(2);
}
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
// Imported after the log level is set: the logger reads it when its module loads (the drain's worker pass runs here).
const { runSoak } = await import('./run-soak');
const { soakSection } = await import('./results-page');
const { RESULTS_PAGE, writeResults } = await import('../bench/results-page');

const log = (line: string) => console.error(`[soak] ${line}`);
const result = await runSoak({ minutes, concurrency, usersPerTenant, requestsPerSecond, log });
console.log(result.table);
// Short check runs are not published unless asked for; the runs the README quotes write themselves.
if (values.record ?? (!values['no-record'] && minutes >= 10)) {
  writeResults(soakSection({ command: `npm run soak -- --minutes ${values.minutes} --concurrency ${concurrency} --users ${usersPerTenant}${requestsPerSecond ? ` --rate ${requestsPerSecond}` : ''}`, summary: result.table, violations: result.violations }));
  log(`results written to ${RESULTS_PAGE} and the README's soak line`);
}
if (result.violations.length) {
  console.log(`\n${result.violations.length} violation(s):`);
  for (const v of result.violations) console.log(`  - ${v}`);
  process.exit(1);
}
console.log('\nNo violations.');
process.exit(0);
