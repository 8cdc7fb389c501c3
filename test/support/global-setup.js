// Jest loads global setup outside its ESM transform, so this file is plain JavaScript and borrows tsx to
// load the TypeScript launcher the local runtime uses too.
import { tsImport } from 'tsx/esm/api';

// One DynamoDB Local for the whole run; each test file creates its own tables under a unique prefix.
export default async function globalSetup() {
  // The console's browser tests serve its built web app: built here when its sources changed (no second step).
  const { buildConsole } = await tsImport('../../infra/tooling/console-build.ts', import.meta.url);
  await buildConsole({ quiet: true });
  if (process.env.TEST_DYNAMODB_ENDPOINT) {
    process.env.DYNAMODB_ENDPOINT = process.env.TEST_DYNAMODB_ENDPOINT;
    return;
  }
  const { startDynamoDbLocal } = await tsImport('../../infra/local/dynamodb-local.ts', import.meta.url);
  const { freePort } = await tsImport('../../infra/local/free-port.ts', import.meta.url);
  // A loaded machine can take well over 30 s to start the JVM.
  const dynamo = await startDynamoDbLocal(await freePort(), 120_000);
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  globalThis.__dynamo__ = dynamo;
}
