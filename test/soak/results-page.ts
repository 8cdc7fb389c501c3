/**
 * What a soak run records of itself: its section of the results page (the command, the commit, the machine,
 * the verdict and the whole summary) and its headline for the README's line, written by the benches' one
 * writer (`test/bench/results-page.ts`), so publishing a run needs no hand edit.
 */
import { execFileSync } from 'node:child_process';
import { machine, type ResultsSection } from '../bench/results-page';

function commit(): string {
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${hash} with uncommitted changes` : hash;
  } catch {
    return 'unknown commit';
  }
}

/** The first `count` violations, and how many more: one failure repeated a thousand times is one story, not a page. */
function firstOf(violations: readonly string[], count: number): string[] {
  return violations.length > count ? [...violations.slice(0, count), `… and ${violations.length - count} more`] : [...violations];
}

/** Violations listed in the run's section, and in its headline. */
const LISTED = { section: 20, headline: 3 };

/** The run's section: its first summary line (requests, minutes, concurrency) is the headline. */
export function soakSection(input: { command: string; summary: string; violations: readonly string[]; at?: Date }): ResultsSection {
  const verdict = input.violations.length ? `**${input.violations.length} violation(s)**:\n\n${firstOf(input.violations, LISTED.section).map((v) => `- ${v}`).join('\n')}` : 'No violations.';
  const headline = input.summary.split('\n')[0]!.trim();
  return {
    name: 'soak',
    title: 'npm run soak',
    markdown: [`\`${input.command}\` on commit ${commit()}, ${machine()}. ${verdict}`, '', '```', `$ ${input.command}`, input.summary, '```'].join('\n'),
    figure: `${headline}; ${input.violations.length ? `${input.violations.length} check(s) failed: ${firstOf(input.violations, LISTED.headline).join('; ')}` : 'no invariant violated, every route succeeded'}`,
    at: input.at,
  };
}
