import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, createServer } from 'node:net';
import { freePort } from '../../infra/local/free-port';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = join(root, 'node_modules/.bin/tsx');

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; got:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!pattern.test(output)) reject(new Error(`exited with ${code} before ${pattern}:\n${output}`));
    });
  });
}

describe('npm start (the local runtime as a user runs it)', () => {
  test('starts everything, prints a working token, curl line and console sign-in, and Ctrl-C stops what it started', async () => {
    const [port, dynamoPort, simPort] = [await freePort(), await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DYNAMODB_LOCAL_PORT: String(dynamoPort), ASC_SIM_PORT: String(simPort), POWERTOOLS_LOG_LEVEL: 'SILENT' };
    delete env.DYNAMODB_ENDPOINT;
    delete env.TABLE_PREFIX;
    const child = spawn(tsx, ['bin/local.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const banner = await waitForOutput(child, /Press Ctrl-C to stop/, 60_000);
      const token = /Demo token:\s+(\S+)/.exec(banner)?.[1];
      expect(token).toBeDefined();
      const publish = /curl -s -X POST (\S+\/publish) -H 'Authorization: Bearer (\S+)'/.exec(banner);
      expect(publish?.[2]).toBe(token);
      const res = await fetch(publish![1]!, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'X-Lang': 'en' } });
      const body = (await res.json()) as { code: number; data: { publish_status: string } };
      expect(body.code).toBe(1);
      expect(body.data.publish_status).toBe('published');
      expect(await portOpen(dynamoPort)).toBe(true);

      // The console's address and the demo login the banner prints sign in as the demo user.
      const signIn = /Console:\s+(\S+\/console)\s+sign in as (\S+), password (\S+)/.exec(banner);
      expect(signIn?.[1]).toBe(`http://127.0.0.1:${port}/console`);
      expect((await fetch(signIn![1]!)).status).toBe(200);
      const session = await fetch(`http://127.0.0.1:${port}/api/user/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Lang': 'en' },
        body: JSON.stringify({ action: 'sign_in', login: signIn![2], password: signIn![3] }),
      });
      const signedIn = (await session.json()) as { code: number; data: { user: { user_id: string; login: string } } };
      expect(signedIn.code).toBe(1);
      expect(signedIn.data.user).toMatchObject({ user_id: /Demo user:\s+(\S+)/.exec(banner)?.[1], login: 'demo' });
      expect(session.headers.get('set-cookie')).toMatch(/^console_session=/);

      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(await portOpen(port)).toBe(false);
      expect(await portOpen(dynamoPort)).toBe(false);
      expect(await portOpen(simPort)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 90_000);

  test('a port already in use is named with the variable that moves it, before anything starts', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(await freePort()), DYNAMODB_LOCAL_PORT: String(taken), ASC_SIM_PORT: String(await freePort()) };
      delete env.DYNAMODB_ENDPOINT;
      const child = spawn(tsx, ['bin/local.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const output = await waitForOutput(child, /already in use/, 30_000);
      const code = await new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
      expect(code).toBe(1);
      expect(output).toContain(`port ${taken} is already in use`);
      expect(output).toContain('DYNAMODB_LOCAL_PORT=');
    } finally {
      blocker.close();
    }
  }, 40_000);

  test('DynamoDB Local does not outlive a process that started it and then died of an uncaught error', async () => {
    const dynamoPort = await freePort();
    const script = [
      `import { startDynamoDbLocal } from ${JSON.stringify(join(root, 'infra/local/dynamodb-local.ts'))};`,
      `await startDynamoDbLocal(${dynamoPort});`,
      `console.log('DynamoDB Local is up');`,
      `throw new Error('a crash before stop()');`,
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      await waitForOutput(child, /DynamoDB Local is up/, 60_000);
      expect(await exited).not.toBe(0);
      // The JVM gets SIGTERM as its parent exits; it needs a moment to close its port.
      const deadline = Date.now() + 15_000;
      while ((await portOpen(dynamoPort)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await portOpen(dynamoPort)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 90_000);

  test('without Java it says how to install it and exits non-zero', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: dirname(process.execPath), PORT: String(await freePort()), DYNAMODB_LOCAL_PORT: String(await freePort()) };
    delete env.DYNAMODB_ENDPOINT;
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = await waitForOutput(child, /Java 17/, 30_000);
    const code = await new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
    expect(code).not.toBe(0);
    expect(output).toMatch(/openjdk-17-jre-headless/);
  }, 40_000);
});
