/**
 * The device simulator's command: plays an iPhone against a Profile Service profile.
 *
 *   npm run --silent device-sim -- anchor
 *       → {"root_ca_pem": ".local/device-sim/root-ca.pem"}   (install it: admin -- udid anchor-add --file …)
 *   npm run --silent device-sim -- capture --profile URL [--udid X] [--forge tampered|self-signed|foreign-ca] [--digest sha1|sha256] [--save-answer FILE]
 *       → {"status":301,"location":"…?udid=…&ticket=…",…}
 *   npm run --silent device-sim -- replay --answer FILE --url CALLBACK_URL
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { postAnswer } from './device';
import { persistentDeviceCa, runDevice, type Forgery } from './run';

function flags(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) if (argv[i]!.startsWith('--')) out[argv[i]!.slice(2)] = argv[i + 1] ?? '';
  return out;
}

/** One run of the command: its exit code; what it prints goes to `out` (JSON lines) and `err`. */
export async function runDeviceSim(argv: string[], out: (s: string) => void = (s) => process.stdout.write(s), err: (s: string) => void = (s) => process.stderr.write(s)): Promise<number> {
  try {
    const [action, ...rest] = argv;
    const f = flags(rest);
    const { ca, rootPemFile } = persistentDeviceCa();
    if (action === 'anchor') {
      // Relative to where it runs, as the next step (`udid anchor-add --file …`) takes it.
      out(`${JSON.stringify({ root_ca_pem: relative(process.cwd(), rootPemFile) })}\n`);
      return 0;
    }
    if (action === 'capture') {
      if (!f.profile) throw new Error('--profile URL is required');
      const udid = f.udid ?? `00008030-${randomBytes(8).toString('hex').toUpperCase()}`;
      const run = await runDevice(ca, f.profile, { udid }, { forgery: (f.forge ?? 'none') as Forgery, digest: f.digest === 'sha256' ? 'sha256' : 'sha1' });
      if (f['save-answer']) writeFileSync(f['save-answer'], run.answer);
      out(`${JSON.stringify({ udid, profile_signed: run.profile.signed, callback: run.profile.url, status: run.result.status, location: run.result.location, error: run.result.error })}\n`);
      return 0;
    }
    if (action === 'replay') {
      const result = await postAnswer(f.url!, readFileSync(f.answer!));
      out(`${JSON.stringify({ status: result.status, location: result.location, error: result.error })}\n`);
      return 0;
    }
    throw new Error('usage: device-sim anchor | capture --profile URL [--udid X] [--forge …] | replay --answer FILE --url URL');
  } catch (error) {
    err(`${(error as Error).message}\n`);
    return 1;
  }
}
