/**
 * The answers the READMEs show under their examples, read as patterns: JSON in which `…` elides.
 *
 * - `…` as an object member stands for the members not shown; members not shown are never checked anyway.
 * - `…` as an array element stands for elements not shown; without it the array has exactly the elements shown.
 * - `…` as a value stands for any value; inside a string for any text (`"k…"`: a string starting with `k`).
 * - A Unix time (a number of 9 digits or more, or such a run of digits in a string) stands for any time, and
 *   in a `msg` every number stands for any number: they differ from run to run ("retry in 9 seconds").
 * - A sample value (8+ letters and digits, such as an unlock code) that a later command uses stands for the
 *   value answered, in the later commands and answers too.
 * - `<source>` stands for the demo source's id.
 *
 * Matching returns the differences, each named by its path (`data.error: expected "quota_exceeded", got …`),
 * and what the elisions matched, so a later command can use the value (`…?dk=Hq…` → the key answered).
 */

export type Pattern =
  | { kind: 'any' }
  | { kind: 'object'; members: [string, Pattern][] }
  | { kind: 'array'; items: Pattern[]; open: boolean }
  | { kind: 'string'; text: string }
  | { kind: 'literal'; value: number | boolean | null };

const ELLIPSIS = '…';

export class PatternSyntaxError extends Error {}

/** Parses the pattern at the start of `text`; what follows it (prose after the answer) is ignored. */
export function parsePattern(text: string): { pattern: Pattern; rest: string } {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new PatternSyntaxError(`${what} at column ${i + 1} of ${JSON.stringify(text.slice(0, 160))}`);
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail('unterminated string');
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): Pattern => {
    ws();
    const c = text[i];
    if (c === ELLIPSIS) {
      i++;
      return { kind: 'any' };
    }
    if (c === '"') return { kind: 'string', text: str() };
    if (c === '{') {
      i++;
      const members: [string, Pattern][] = [];
      for (;;) {
        ws();
        if (text[i] === '}') {
          i++;
          return { kind: 'object', members };
        }
        if (text[i] === ELLIPSIS) i++;
        else {
          if (text[i] !== '"') fail('expected a key');
          const key = str();
          ws();
          if (text[i] !== ':') fail('expected ":"');
          i++;
          members.push([key, value()]);
        }
        ws();
        if (text[i] === ',') i++;
        else if (text[i] !== '}') fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const items: Pattern[] = [];
      let open = false;
      for (;;) {
        ws();
        if (text[i] === ']') {
          i++;
          return { kind: 'array', items, open };
        }
        const item = value();
        if (item.kind === 'any') open = true;
        else items.push(item);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] !== ']') fail('expected "," or "]"');
      }
    }
    const m = /^(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)(?![\w-])/.exec(text.slice(i));
    if (!m) return fail('expected a value');
    i += m[0].length;
    return { kind: 'literal', value: JSON.parse(m[0]) as number | boolean | null };
  };
  const pattern = value();
  return { pattern, rest: text.slice(i) };
}

export interface MatchContext {
  /** The demo source's id, for `<source>`. */
  source: string;
  /** Literal values in answers that a later command uses: a different value answered is bound, not a difference. */
  isSample(literal: string): boolean;
}

export interface MatchResult {
  differences: string[];
  /** `Hq…` → the value it matched; sample literal → the value answered. */
  bindings: Map<string, string>;
}

const TIME_DIGITS = /\d{9,}/;
/** What may be a sample value (an unlock code, an id): one token of 8 or more letters and digits. */
const SAMPLE = /^(?=.*[A-Z])(?=.*\d)[A-Za-z0-9_-]{8,}$/;
/** What names an elision for a later command: the token before it, with its `name=` (`dk=…`, `u_…`, `00008030-…`). */
const PREFIX = /(?:[A-Za-z0-9_]+=)?[A-Za-z0-9_-]*$/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A string pattern as a regular expression, with one group per `…` and the token before each. */
function stringRegExp(text: string, context: MatchContext, anyNumber: boolean): { re: RegExp; prefixes: string[] } {
  const prefixes: string[] = [];
  const parts = text.split(ELLIPSIS);
  const body = parts
    .map((part, index) => {
      let re = escapeRegExp(part).split(escapeRegExp('<source>')).join(escapeRegExp(context.source));
      re = re.replace(anyNumber ? /\d+/g : /\d{9,}/g, anyNumber ? '\\d+' : '\\d{9,}');
      if (index < parts.length - 1) prefixes.push(PREFIX.exec(part)![0]);
      return re;
    })
    .join('(.*?)');
  return { re: new RegExp(`^${body}$`, 's'), prefixes };
}

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? 'nothing' : s.length > 120 ? `${s.slice(0, 117)}…` : s;
};

export function matchPattern(pattern: Pattern, actual: unknown, context: MatchContext): MatchResult {
  const differences: string[] = [];
  const bindings = new Map<string, string>();
  const walk = (p: Pattern, a: unknown, path: string, key: string) => {
    const at = path || '(the answer)';
    switch (p.kind) {
      case 'any':
        if (a === undefined) differences.push(`${at}: expected a value, got nothing`);
        return;
      case 'literal': {
        if (typeof p.value === 'number' && p.value >= 1e9) {
          if (typeof a !== 'number' || a < 1e9) differences.push(`${at}: expected a Unix time, got ${show(a)}`);
          return;
        }
        if (a !== p.value) differences.push(`${at}: expected ${show(p.value)}, got ${show(a)}`);
        return;
      }
      case 'string': {
        if (typeof a !== 'string') {
          differences.push(`${at}: expected ${show(p.text)}, got ${show(a)}`);
          return;
        }
        const { re, prefixes } = stringRegExp(p.text, context, key === 'msg');
        const m = re.exec(a);
        if (m) {
          prefixes.forEach((prefix, index) => {
            if (!prefix) return;
            const captured = /^[A-Za-z0-9_-]*/.exec(m[index + 1]!)![0];
            bindings.set(`${prefix}${ELLIPSIS}`, `${prefix}${captured}`);
          });
          return;
        }
        if (SAMPLE.test(p.text) && !TIME_DIGITS.test(p.text) && context.isSample(p.text)) {
          bindings.set(p.text, a);
          return;
        }
        differences.push(`${at}: expected ${show(p.text)}, got ${show(a)}`);
        return;
      }
      case 'object': {
        if (typeof a !== 'object' || a === null || Array.isArray(a)) {
          differences.push(`${at}: expected an object, got ${show(a)}`);
          return;
        }
        for (const [k, v] of p.members) {
          const child = path ? `${path}.${k}` : k;
          if (!Object.hasOwn(a, k)) differences.push(`${child}: expected ${describe(v)}, got nothing (the answer has ${Object.keys(a).join(', ') || 'no fields'})`);
          else walk(v, (a as Record<string, unknown>)[k], child, k);
        }
        return;
      }
      case 'array': {
        if (!Array.isArray(a)) {
          differences.push(`${at}: expected an array, got ${show(a)}`);
          return;
        }
        if (!p.open) {
          if (a.length !== p.items.length) differences.push(`${at}: expected ${p.items.length} element(s), got ${a.length}: ${show(a)}`);
          p.items.forEach((item, index) => index < a.length && walk(item, a[index], `${path}[${index}]`, key));
          return;
        }
        // Open: the elements shown appear in this order, others may come between.
        let from = 0;
        for (const item of p.items) {
          let found = -1;
          for (let j = from; j < a.length && found < 0; j++) {
            const trial = matchPattern(item, a[j], context);
            if (trial.differences.length === 0) {
              found = j;
              trial.bindings.forEach((v, k) => bindings.set(k, v));
            }
          }
          if (found < 0) {
            differences.push(`${at}: no element matches ${describe(item)} (got ${show(a)})`);
            return;
          }
          from = found + 1;
        }
        return;
      }
    }
  };
  walk(pattern, actual, '', '');
  return { differences, bindings };
}

export function describe(p: Pattern): string {
  switch (p.kind) {
    case 'any':
      return 'a value';
    case 'literal':
      return show(p.value);
    case 'string':
      return show(p.text);
    case 'object':
      return `{${p.members.map(([k, v]) => `"${k}":${describe(v)}`).join(',')}${p.members.length ? ',…' : '…'}}`;
    case 'array':
      return `[${p.items.map(describe).join(',')}${p.open ? ',…' : ''}]`;
  }
}

/** A text answer (`200 200 … 429`, a header's value): `…` is any text; times and `<source>` as above. */
export function matchText(expected: string, actual: string, context: MatchContext): MatchResult {
  const { re, prefixes } = stringRegExp(expected.trim(), context, false);
  const m = re.exec(actual.trim());
  const bindings = new Map<string, string>();
  if (!m) return { differences: [`expected ${show(expected.trim())}, got ${show(actual.trim())}`], bindings };
  prefixes.forEach((prefix, index) => prefix && bindings.set(`${prefix}${ELLIPSIS}`, `${prefix}${/^[A-Za-z0-9_-]*/.exec(m[index + 1]!)![0]}`));
  return { differences: [], bindings };
}
