/**
 * Where a soak run records itself: its summary with the date, the commit and the machine, written between the
 * `<!-- bench:soak -->` markers of the results page, so publishing a run needs no hand edit. The page is the
 * generated results page when the repository has one (`test/bench/results.md`), else the README.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

const START = '<!-- bench:soak -->';
const END = '<!-- /bench:soak -->';

/** The page a run is written to. */
export function resultsPage(root = process.cwd()): string {
  const generated = join(root, 'test/bench/results.md');
  return existsSync(generated) ? generated : join(root, 'README.md');
}

function commit(): string {
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${hash} with uncommitted changes` : hash;
  } catch {
    return 'unknown commit';
  }
}

export const machine = () => `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;

/** The section for one run: when, on what, the command, its verdict and its whole summary. */
export function soakSection(input: { command: string; summary: string; violations: readonly string[]; at?: Date }): string {
  const at = (input.at ?? new Date()).toISOString().slice(0, 16).replace('T', ' ');
  const verdict = input.violations.length ? `**${input.violations.length} violation(s)**:\n\n${input.violations.map((v) => `- ${v}`).join('\n')}` : 'No violations.';
  return [`${at} UTC, \`${input.command}\` on commit ${commit()}, ${machine()}. Written by the soak itself. ${verdict}`, '', '```', `$ ${input.command}`, input.summary, '```'].join('\n');
}

/** Replaces what is between the markers of `page` with `section`; refuses a page without both markers. */
export function writeSoakSection(page: string, section: string): void {
  const text = readFileSync(page, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${page} has no ${START} … ${END} markers to write the soak's results between`);
  writeFileSync(page, `${text.slice(0, start + START.length)}\n${section}\n${text.slice(end)}`);
}
