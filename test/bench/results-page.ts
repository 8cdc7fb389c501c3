/**
 * The page every benchmark writes its tables to (`test/bench/results.md`), and the one line per benchmark the
 * README shows. A run replaces its own section of the page (its latest tables, then a history of one line per
 * run, newest first) and its own line of the README between markers, so a bench run never needs a hand edit
 * of either: `npm run bench` writes the `hot-path` section, `npm run cost` the `cost` section. A section is
 * marked `<!-- bench:NAME -->…<!-- /bench:NAME -->`, the markers the soak's own writer (test/soak/results-page.ts)
 * replaces between, so the soak's section lives on the same page.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

export const RESULTS_PAGE = fileURLToPath(new URL('./results.md', import.meta.url));
export const README = fileURLToPath(new URL('../../README.md', import.meta.url));

/** The machine a run was made on, as every section names it. */
export const machine = () => `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;

/** History lines a section keeps (newest first). */
const HISTORY_LINES = 20;

const PAGE_HEAD = `# Benchmark results

Written by the benchmarks themselves (\`test/bench/results-page.ts\`); do not edit by hand, a run replaces its own
section. What each benchmark measures and how to run it: [test/README.md](../README.md#benchmarks). Each section
holds the latest run's tables and, under **History**, one line per run.
`;

export interface ResultsSection {
  /** The section's id: `hot-path`, `soak`, `cost`, … (letters, digits and dashes). */
  name: string;
  /** The section's heading on the page. */
  title: string;
  /** The latest run's tables (Markdown). */
  markdown: string;
  /** One line for the README and the history: the run's headline figure, without a date. */
  figure: string;
  /** When the run was made (defaults to now). */
  at?: Date;
}

const startMarker = (kind: string, name: string) => `<!-- ${kind}:${name} -->`;
const endMarker = (kind: string, name: string) => `<!-- /${kind}:${name} -->`;

/** The text between a pair of markers, or undefined when the markers are absent. */
export function between(text: string, kind: string, name: string): string | undefined {
  const start = text.indexOf(startMarker(kind, name));
  const end = text.indexOf(endMarker(kind, name));
  if (start < 0 || end < start) return undefined;
  return text.slice(start + startMarker(kind, name).length, end);
}

/** `text` with the part between a pair of markers replaced (the pair appended at the end when absent). */
export function replaceBetween(text: string, kind: string, name: string, body: string): string {
  const start = text.indexOf(startMarker(kind, name));
  const end = text.indexOf(endMarker(kind, name));
  const block = `${startMarker(kind, name)}${body}${endMarker(kind, name)}`;
  if (start < 0 || end < start) return `${text.trimEnd()}\n\n${block}\n`;
  return text.slice(0, start) + block + text.slice(end + endMarker(kind, name).length);
}

/** The section's text on the page: the latest tables, then the history with this run's line on top. */
export function renderSection(section: ResultsSection, previous: string | undefined): string {
  const at = (section.at ?? new Date()).toISOString().slice(0, 16).replace('T', ' ');
  const oldHistory = (previous ?? '').split('\n### History\n')[1] ?? '';
  const history = [`- ${at} UTC: ${section.figure}`, ...oldHistory.split('\n').filter((l) => l.startsWith('- '))].slice(0, HISTORY_LINES);
  return `\n## ${section.title}\n\nLatest run: ${at} UTC.\n\n${demoted(section.markdown.trim())}\n\n### History\n\n${history.join('\n')}\n`;
}

/**
 * Writes a run's section into the results page and its figure into the README's line for it (only when the
 * README has the markers `<!-- figure:NAME -->…<!-- /figure:NAME -->`; nothing else of the README is touched).
 */
export function writeResults(section: ResultsSection, files: { page?: string; readme?: string } = {}): void {
  const page = files.page ?? RESULTS_PAGE;
  const readme = files.readme ?? README;
  const text = existsSync(page) ? readFileSync(page, 'utf8') : PAGE_HEAD;
  const body = renderSection(section, between(text, 'bench', section.name));
  // A new section goes above the archive of what the README used to hold, which stays last.
  const archive = text.indexOf('<!-- archive:');
  const placed = between(text, 'bench', section.name) === undefined && archive >= 0 ? `${text.slice(0, archive)}${startMarker('bench', section.name)}${body}${endMarker('bench', section.name)}\n\n${text.slice(archive)}` : replaceBetween(text, 'bench', section.name, body);
  writeFileSync(page, placed);
  if (!existsSync(readme)) return;
  const readmeText = readFileSync(readme, 'utf8');
  if (between(readmeText, 'figure', section.name) === undefined) return;
  const at = (section.at ?? new Date()).toISOString().slice(0, 10);
  writeFileSync(readme, replaceBetween(readmeText, 'figure', section.name, `${section.figure} (${at}; [tables](test/bench/results.md#${anchor(section.title)}))`));
}

/** A run's own headings two levels down, under its section's (a `# title` becomes `### title`). */
export function demoted(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (line.startsWith('```')) fenced = !fenced;
      return !fenced && /^#{1,4} /.test(line) ? `##${line}` : line;
    })
    .join('\n');
}

/** GitHub's anchor for a heading. */
export function anchor(title: string): string {
  return title.toLowerCase().replace(/[^\p{L}\p{N} -]/gu, '').replace(/ /g, '-');
}
