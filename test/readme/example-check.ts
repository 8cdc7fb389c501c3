/**
 * What a README shows under an example, checked against what the command printed. The shown answer is one of:
 *
 * - `{…}` / `[…]`, or `→ {…}`, or `stdout: {…}`: the JSON answer, as a pattern (answer-pattern.ts);
 * - `HTTP/1.1 429 … Name: value, Name: value, "text"` (a `curl -si`): the status, each header named (its value
 *   a text pattern) and text the body holds, then optionally the JSON body on the next `#` line;
 * - `HTTP 400 {…}` or `403 {…}`: the status (checked when the output carries it) and the JSON body;
 * - `303 http://…` and any other line starting with a status: the whole output, as a text pattern.
 *
 * Anything else after `#` is prose and is not checked; the command must then still succeed (exit 0, and an
 * envelope it prints has `code` 1).
 */
import { matchPattern, matchText, parsePattern, type MatchContext, type MatchResult, type Pattern } from './answer-pattern';

interface Expected {
  status?: number;
  headers: [string, string][];
  bodyTexts: string[];
  json?: Pattern;
  text?: string;
}

/** Headers whose value is a clock reading: any number matches. */
const CLOCK_HEADERS = new Set(['retry-after', 'x-ratelimit-reset']);

export function readExpected(answer: string): Expected {
  let text = answer.replace(/^→\s*/, '').replace(/^stdout:\s*/, '');
  const expected: Expected = { headers: [], bodyTexts: [] };
  const statusLine = /^HTTP\/[\d.]+ (\d{3})\b\s*(?:…\s*)?/.exec(text);
  if (statusLine) {
    expected.status = Number(statusLine[1]);
    text = text.slice(statusLine[0].length);
    const brace = text.indexOf('{');
    const headerPart = brace >= 0 ? text.slice(0, brace) : text;
    for (const item of headerPart.split(/,\s+/).map((s) => s.trim()).filter((s) => s && s !== '…')) {
      const quoted = /^"(.*)"$/.exec(item);
      const header = /^([A-Za-z][A-Za-z0-9-]*):\s*(.*)$/.exec(item);
      if (quoted) expected.bodyTexts.push(quoted[1]!);
      else if (header) expected.headers.push([header[1]!.toLowerCase(), header[2]!]);
    }
    if (brace >= 0) expected.json = parsePattern(text.slice(brace)).pattern;
    return expected;
  }
  const shortStatus = /^(?:HTTP )?(\d{3})\s+(?=[{[])/.exec(text);
  if (shortStatus) {
    expected.status = Number(shortStatus[1]);
    expected.json = parsePattern(text.slice(shortStatus[0].length)).pattern;
    return expected;
  }
  if (/^[{[]/.test(text)) {
    expected.json = parsePattern(text).pattern;
    return expected;
  }
  expected.text = text;
  return expected;
}

export interface Output {
  status: number | undefined;
  headers: Map<string, string[]>;
  body: string;
  json: unknown;
}

export function readOutput(stdout: string): Output {
  let body = stdout;
  let status: number | undefined;
  const headers = new Map<string, string[]>();
  if (/^HTTP\/[\d.]+ \d{3}/.test(stdout)) {
    // The last header block (a 100 Continue comes before the answer's own).
    const blocks = stdout.split(/\r?\n\r?\n/);
    let k = 0;
    while (k + 1 < blocks.length && /^HTTP\/[\d.]+ \d{3}/.test(blocks[k + 1]!)) k++;
    const head = blocks[k]!.split(/\r?\n/);
    status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(head[0]!)![1]);
    for (const line of head.slice(1)) {
      const m = /^([^:]+):\s*(.*)$/.exec(line);
      if (m) headers.set(m[1]!.toLowerCase(), [...(headers.get(m[1]!.toLowerCase()) ?? []), m[2]!]);
    }
    body = blocks.slice(k + 1).join('\n\n');
  }
  let json: unknown;
  try {
    json = JSON.parse(body.trim());
  } catch {
    const lastLine = body.trim().split('\n').pop() ?? '';
    try {
      json = JSON.parse(lastLine);
    } catch {
      json = undefined;
    }
  }
  return { status, headers, body, json };
}

export function checkAnswer(answer: string, stdout: string, context: MatchContext): MatchResult {
  let expected: Expected;
  try {
    expected = readExpected(answer);
  } catch (error) {
    return { differences: [`the README's answer cannot be read as an answer: ${(error as Error).message}`], bindings: new Map() };
  }
  const output = readOutput(stdout);
  const differences: string[] = [];
  const bindings = new Map<string, string>();
  const take = (r: MatchResult, prefix = '') => {
    differences.push(...r.differences.map((d) => `${prefix}${d}`));
    r.bindings.forEach((v, k) => bindings.set(k, v));
  };
  if (expected.text !== undefined) {
    take(matchText(expected.text, stdout, context));
    return { differences, bindings };
  }
  if (expected.status !== undefined && output.status !== undefined && output.status !== expected.status) {
    differences.push(`HTTP status: expected ${expected.status}, got ${output.status}`);
  }
  for (const [name, value] of expected.headers) {
    const got = output.headers.get(name);
    if (!got) {
      differences.push(`header ${name}: expected ${JSON.stringify(value)}, the answer has none`);
      continue;
    }
    const pattern = CLOCK_HEADERS.has(name) ? value.replace(/\d+/g, '…') : value;
    const results = got.map((g) => matchText(pattern, g, context));
    const ok = results.find((r) => r.differences.length === 0);
    if (ok) take(ok);
    else differences.push(`header ${name}: expected ${JSON.stringify(value)}, got ${JSON.stringify(got.join(' | '))}`);
  }
  for (const text of expected.bodyTexts) {
    const re = new RegExp(text.split('…').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?'), 's');
    if (!re.test(output.body)) differences.push(`body: expected it to contain ${JSON.stringify(text)}, got ${JSON.stringify(output.body.slice(0, 200))}`);
  }
  if (expected.json) {
    if (output.json === undefined) differences.push(`expected a JSON answer, got ${JSON.stringify(output.body.slice(0, 200))}`);
    else take(matchPattern(expected.json, output.json, context));
  }
  return { differences, bindings };
}
