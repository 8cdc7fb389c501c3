/**
 * One bash for a README's examples, run line by line as a reader pastes them: variables and background
 * jobs (`node -e … &`) carry from one command to the next. Each command's stdout and stderr are kept apart.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CommandRun {
  status: number;
  stdout: string;
  stderr: string;
}

export class ShellSession {
  readonly dir = mkdtempSync(join(tmpdir(), 'readme-examples-'));
  private readonly bash: ChildProcessWithoutNullStreams;
  private buffer = '';
  private waiting: { marker: string; resolve: (status: number) => void } | undefined;
  private count = 0;

  constructor(env: NodeJS.ProcessEnv, prelude: string) {
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd: this.dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.bash.stdout.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString();
      const w = this.waiting;
      const m = w && new RegExp(`${w.marker} (\\d+)\\n`).exec(this.buffer);
      if (w && m) {
        this.buffer = '';
        this.waiting = undefined;
        w.resolve(Number(m[1]));
      }
    });
    this.bash.stdin.write(`${prelude}\n`);
  }

  /** Runs one command in the session; `timeoutMs` bounds it. */
  run(command: string, timeoutMs = 20_000): Promise<CommandRun> {
    const n = ++this.count;
    const out = join(this.dir, `.out.${n}`);
    const err = join(this.dir, `.err.${n}`);
    const marker = `__readme_example_done_${n}__`;
    return new Promise<CommandRun>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`did not finish within ${timeoutMs / 1000} s`)), timeoutMs);
      this.waiting = {
        marker,
        resolve: (status) => {
          clearTimeout(timer);
          resolve({ status, stdout: readFileSync(out, 'utf8'), stderr: readFileSync(err, 'utf8') });
        },
      };
      this.bash.stdin.write(`{ ${command}\n} >${out} 2>${err} </dev/null; echo "${marker} $?"\n`);
    });
  }

  /** Whether a variable is set in the session. */
  async isSet(name: string): Promise<boolean> {
    return (await this.run(`[ -n "\${${name}+x}" ]`)).status === 0;
  }

  async close(): Promise<void> {
    // The examples' background servers are the session's jobs: stop them with it.
    this.bash.stdin.write('kill $(jobs -p) 2>/dev/null; exit 0\n');
    await new Promise<void>((resolve) => (this.bash.exitCode !== null ? resolve() : this.bash.once('exit', () => resolve())));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
