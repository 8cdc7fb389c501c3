// Jest loads global setup outside its ESM transform, so this file is plain JavaScript and borrows tsx to
// load the TypeScript launcher the local runtime uses too.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';

/**
 * Every answer of the HTTP tests is checked against the OpenAPI document (test/support/openapi.ts): built here
 * once for the run, by the same builder the stack publishes, instead of once in each of some eighty test files
 * (a third of a second of CPU each). The workers find it by TEST_OPENAPI_DOCUMENT.
 */
async function writeOpenApiDocument(dir) {
  const { buildOpenApiDocument } = await tsImport('../../infra/tooling/openapi-document.ts', import.meta.url);
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(await buildOpenApiDocument()));
  process.env.TEST_OPENAPI_DOCUMENT = file;
}

/**
 * What the run writes outside the checkout lives in one folder, removed by global teardown: the OpenAPI
 * document and the key file that wraps the Apple account secrets the tests seal (created on first use by
 * whichever worker seals first; the others read it). A folder per test file had left a thousand behind.
 */
function makeRunDir() {
  const dir = mkdtempSync(join(tmpdir(), 'appsource-test-run-'));
  globalThis.__runDir__ = dir;
  process.env.ACCOUNT_SECRETS_KEY_FILE ??= join(dir, 'account-secrets.key');
  return dir;
}

// One DynamoDB Local for the whole run; each test file creates its own tables under a unique prefix.
export default async function globalSetup() {
  // The console's browser tests serve its built web app: built here when its sources changed (no second step).
  // The build (Vite, a dozen seconds on a fresh clone) and DynamoDB Local's JVM start side by side: no test
  // starts before both are done, so running them one after the other only made every file wait longer.
  const { buildConsole } = await tsImport('../../infra/tooling/console-build.ts', import.meta.url);
  const built = Promise.all([buildConsole({ quiet: true }), writeOpenApiDocument(makeRunDir())]);
  if (process.env.TEST_DYNAMODB_ENDPOINT) {
    process.env.DYNAMODB_ENDPOINT = process.env.TEST_DYNAMODB_ENDPOINT;
    await built;
    return;
  }
  const { startDynamoDbLocal } = await tsImport('../../infra/local/dynamodb-local.ts', import.meta.url);
  const { freePort } = await tsImport('../../infra/local/free-port.ts', import.meta.url);
  // A loaded machine can take well over 30 s to start the JVM.
  const started = freePort().then((port) => startDynamoDbLocal(port, 120_000));
  // Whichever fails, the other is still waited for, so a failed build never leaves a JVM behind unstopped.
  const [build, dynamo] = await Promise.allSettled([built, started]);
  if (dynamo.status === 'fulfilled') {
    process.env.DYNAMODB_ENDPOINT = dynamo.value.endpoint;
    globalThis.__dynamo__ = dynamo.value;
  }
  if (build.status === 'rejected') {
    await globalThis.__dynamo__?.stop();
    throw build.reason;
  }
  if (dynamo.status === 'rejected') throw dynamo.reason;
}
