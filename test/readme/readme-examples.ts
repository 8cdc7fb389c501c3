/**
 * The examples of a README: its ```sh blocks, split into the commands a shell runs (a command continues over
 * a trailing `\`, an open quote, `$(`, or an open `for … do … done`), each with the answer the README shows
 * under it (`# {…}` lines) or after it on its own line (`cmd   # {…}`).
 *
 * A block preceded by `<!-- readme-examples: skip — why -->` is not run (the reason is required).
 */
import { readFileSync } from 'node:fs';

export interface Example {
  /** 1-based line of the command's first line. */
  line: number;
  command: string;
  /** The answer shown for it, if any: the comment text (without `#`), with its line. */
  answer: { line: number; text: string } | undefined;
}

export interface Block {
  file: string;
  line: number;
  heading: string;
  skip: string | undefined;
  examples: Example[];
}

const SKIP = /<!--\s*readme-examples:\s*skip\s*[—–-]+\s*(.+?)\s*-->/;

/** Where an unquoted `#` starts a comment in one physical line, given the quote state at its start. */
interface LineScan {
  comment: number;
  single: boolean;
  double: boolean;
  subst: number;
  code: string;
}

function scanLine(line: string, state: { single: boolean; double: boolean; subst: number }): LineScan {
  let { single, double, subst } = state;
  let code = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (single) {
      if (c === "'") single = false;
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (double) {
      if (c === '"') double = false;
      else if (c === '$' && line[i + 1] === '(') subst++;
      else if (c === ')' && subst > 0) subst--;
      continue;
    }
    if (c === "'") single = true;
    else if (c === '"') double = true;
    else if (c === '$' && line[i + 1] === '(') subst++;
    else if (c === ')' && subst > 0) subst--;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return { comment: i, single, double, subst, code };
    code += c;
  }
  return { comment: -1, single, double, subst, code };
}

/** `# {…}` lines of one answer: a JSON answer continues over `#` lines until its brackets close. */
function bracketBalance(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return depth;
}

const startsAnswer = (text: string) => /^(→\s*)?(\{|\[|HTTP|\d{3}\b|stdout:)/.test(text);

export function readBlocks(file: string, root: string): Block[] {
  const lines = readFileSync(`${root}/${file}`, 'utf8').split('\n');
  const blocks: Block[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const h = /^#{1,6}\s+(.*)/.exec(lines[i]!);
    if (h) heading = h[1]!;
    if (lines[i]!.trim() !== '```sh') continue;
    let back = i - 1;
    while (back >= 0 && lines[back]!.trim() === '') back--;
    const skip = back >= 0 ? SKIP.exec(lines[back]!)?.[1] : undefined;
    const block: Block = { file, line: i + 1, heading, skip, examples: [] };
    let j = i + 1;
    let current: { line: number; parts: string[]; depth: number; state: { single: boolean; double: boolean; subst: number }; comment: string } | undefined;
    let last: Example | undefined;
    const finish = () => {
      if (!current) return;
      const comment = current.comment.trim();
      last = { line: current.line, command: current.parts.join('\n'), answer: startsAnswer(comment) ? { line: current.line + current.parts.length - 1, text: comment } : undefined };
      block.examples.push(last);
      current = undefined;
    };
    for (; j < lines.length && lines[j]!.trim() !== '```'; j++) {
      const raw = lines[j]!;
      if (!current) {
        if (raw.trim() === '') {
          last = undefined;
          continue;
        }
        if (raw.trim().startsWith('#')) {
          const text = raw.trim().replace(/^#\s?/, '').trim();
          if (last && !last.answer && startsAnswer(text)) last.answer = { line: j + 1, text };
          else if (last?.answer && bracketBalance(last.answer.text) > 0) last.answer.text += ` ${text}`;
          else if (last?.answer && /^\{/.test(text) && /^(→\s*)?HTTP/.test(last.answer.text) && !last.answer.text.includes('{')) last.answer.text += ` ${text}`;
          continue;
        }
        current = { line: j + 1, parts: [], depth: 0, state: { single: false, double: false, subst: 0 }, comment: '' };
      }
      const scan = scanLine(raw, current.state);
      current.state = { single: scan.single, double: scan.double, subst: scan.subst };
      const code = scan.comment >= 0 ? raw.slice(0, scan.comment) : raw;
      current.parts.push(code.replace(/\s+$/, ''));
      current.comment = scan.comment >= 0 ? raw.slice(scan.comment + 1) : '';
      current.depth += (scan.code.match(/\b(do|then)\b/g) ?? []).length - (scan.code.match(/\b(done|fi)\b/g) ?? []).length;
      const continues = scan.single || scan.double || scan.subst > 0 || /\\$/.test(code.replace(/\s+$/, '')) || current.depth > 0;
      if (!continues) finish();
    }
    finish();
    blocks.push(block);
    i = j;
  }
  return blocks;
}
