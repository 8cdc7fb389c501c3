/**
 * Reads an XML property list (`<plist version="1.0">…`), as found inside a `.mobileprovision`: dict, array,
 * key, string, integer, real, true, false, date and data. A small reader instead of a general XML library keeps
 * the add functions' bundles near the size of the SDK they need. Anything else is an error.
 */
import { ServiceError } from '../service-error';
import { ownRecord, ownValue } from '../own-record';

export type PlistValue = string | number | boolean | Date | Uint8Array | PlistValue[] | { [key: string]: PlistValue };

export class PlistError extends ServiceError<'unreadable', 'plist_unreadable'> {
  override readonly name = 'PlistError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('unreadable', 'plist_unreadable', message, options);
  }
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (whole, name: string) => {
    if (name[0] === '#') return String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
    return ownValue(ENTITIES, name.toLowerCase()) ?? whole;
  });
}

/** Tokens: an element start (`<x>` or self-closing `<x/>`), an element end, or text. */
type Token = { kind: 'open'; name: string; selfClosing: boolean } | { kind: 'close'; name: string } | { kind: 'text'; text: string };

function tokenize(xml: string): Token[] {
  const tokens: Token[] = [];
  // Prolog, doctype and comments carry nothing a plist reader needs.
  const body = xml.replace(/<\?[\s\S]*?\?>/g, '').replace(/<!DOCTYPE[^>]*>/gi, '').replace(/<!--[\s\S]*?-->/g, '');
  const re = /<(\/?)([A-Za-z][\w.-]*)([^>]*?)(\/?)>|([^<]+)/g;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = re.exec(body))) {
    if (match.index !== consumed) throw new PlistError('Malformed XML');
    consumed = re.lastIndex;
    if (match[5] !== undefined) tokens.push({ kind: 'text', text: match[5] });
    else if (match[1]) tokens.push({ kind: 'close', name: match[2]! });
    else tokens.push({ kind: 'open', name: match[2]!, selfClosing: match[4] === '/' });
  }
  if (consumed !== body.length) throw new PlistError('Malformed XML');
  return tokens;
}

class Reader {
  #i = 0;
  constructor(private readonly tokens: Token[]) {}

  #skipBlank(): void {
    while (this.tokens[this.#i]?.kind === 'text' && (this.tokens[this.#i] as { text: string }).text.trim() === '') this.#i++;
  }

  #next(): Token {
    const token = this.tokens[this.#i++];
    if (!token) throw new PlistError('Unexpected end of the plist');
    return token;
  }

  peekClose(name: string): boolean {
    this.#skipBlank();
    const t = this.tokens[this.#i];
    return t?.kind === 'close' && t.name === name;
  }

  expectClose(name: string): void {
    this.#skipBlank();
    const t = this.#next();
    if (t.kind !== 'close' || t.name !== name) throw new PlistError(`Expected </${name}>`);
  }

  /** Text up to the element's end tag (empty for `<x></x>`). */
  #textOf(name: string): string {
    let text = '';
    while (this.tokens[this.#i]?.kind === 'text') text += (this.#next() as { text: string }).text;
    const t = this.#next();
    if (t.kind !== 'close' || t.name !== name) throw new PlistError(`Expected </${name}>`);
    return unescapeXml(text);
  }

  open(): { name: string; selfClosing: boolean } {
    this.#skipBlank();
    const t = this.#next();
    if (t.kind !== 'open') throw new PlistError('Expected an element');
    return t;
  }

  value(): PlistValue {
    const { name, selfClosing } = this.open();
    if (selfClosing) {
      if (name === 'true') return true;
      if (name === 'false') return false;
      if (name === 'string' || name === 'data') return name === 'string' ? '' : new Uint8Array();
      if (name === 'dict') return {};
      if (name === 'array') return [];
      throw new PlistError(`Unsupported element <${name}/>`);
    }
    switch (name) {
      case 'dict': {
        const dict: { [key: string]: PlistValue } = ownRecord();
        while (!this.peekClose('dict')) {
          const key = this.open();
          if (key.name !== 'key' || key.selfClosing) throw new PlistError('Expected <key> in a dict');
          const name = this.#textOf('key');
          const value = this.value();
          dict[name] = value;
        }
        this.expectClose('dict');
        return dict;
      }
      case 'array': {
        const list: PlistValue[] = [];
        while (!this.peekClose('array')) list.push(this.value());
        this.expectClose('array');
        return list;
      }
      case 'string':
        return this.#textOf('string');
      case 'integer':
      case 'real': {
        const text = this.#textOf(name).trim();
        const n = Number(text);
        if (text === '' || !Number.isFinite(n)) throw new PlistError(`Bad <${name}> ${text}`);
        return n;
      }
      case 'date': {
        const date = new Date(this.#textOf('date').trim());
        if (Number.isNaN(date.getTime())) throw new PlistError('Bad <date>');
        return date;
      }
      case 'data':
        return new Uint8Array(Buffer.from(this.#textOf('data').replace(/\s+/g, ''), 'base64'));
      case 'true':
      case 'false':
        this.expectClose(name);
        return name === 'true';
      default:
        throw new PlistError(`Unsupported element <${name}>`);
    }
  }
}

/** The root value of an XML plist. */
export function parsePlist(xml: string): PlistValue {
  const reader = new Reader(tokenize(xml));
  const root = reader.open();
  if (root.name !== 'plist' || root.selfClosing) throw new PlistError('Not an XML plist');
  const value = reader.value();
  reader.expectClose('plist');
  return value;
}
