import { runAdmin } from '../../infra/admin/cli';

/** One operator CLI run, in process: its exit code, what it printed, and that output parsed when there was any. */
export interface AdminRun {
  code: number;
  json: Record<string, unknown>;
  stdout: string;
  stderr: string;
}

export async function admin(...argv: string[]): Promise<AdminRun> {
  return adminWithInput('', ...argv);
}

/** One run with `input` as its standard input. */
export async function adminWithInput(input: string, ...argv: string[]): Promise<AdminRun> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(argv, (s) => (stdout += s), (s) => (stderr += s), () => Promise.resolve(input));
  return { code, json: stdout ? (JSON.parse(stdout) as Record<string, unknown>) : {}, stdout, stderr };
}
