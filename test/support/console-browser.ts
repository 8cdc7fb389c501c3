/**
 * What the console's browser tests share: axe-core run inside a page (through the DevTools protocol, which the
 * page's CSP does not govern; the page itself may run no inline script), a record of the problems a page had
 * (CSP violations, failed requests, script errors), and the two viewports.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { IPHONE } from './browser';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const PHONE = IPHONE;
export const LAPTOP = { viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 };

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** The serious and critical axe-core violations of the page as it is now (WCAG 2.1 A and AA rules, and best practices). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Loaded once per document: a screen reached by its hash keeps it (the script is half a megabyte to parse).
  if (!(await page.evaluate('typeof globalThis.axe?.run === "function"'))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    // The whole page (axe’s default context).
    const result = await axe.run('html', { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Collects what went wrong on a page: CSP refusals, script errors, failed requests, answers ≥ 500. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`csp: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`script: ${e.message}`));
  page.on('requestfailed', (r) => !/ERR_ABORTED/.test(r.failure()?.errorText ?? '') && problems.push(`failed ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => r.status() >= 500 && problems.push(`${r.status()} ${r.url()}`));
  return problems;
}
