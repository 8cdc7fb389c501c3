/**
 * A minimal BER/DER reader that keeps every element's original bytes. CMS signatures cover exact encodings, so
 * verifying one needs the bytes as they were received, which decode-and-re-encode libraries do not promise;
 * Apple's profiles also use BER indefinite lengths, which this reader accepts.
 */
import { ServiceError } from '../service-error';

export const Tag = {
  INTEGER: 0x02,
  OCTET_STRING: 0x04,
  OCTET_STRING_CONSTRUCTED: 0x24,
  OID: 0x06,
  SEQUENCE: 0x30,
  SET: 0x31,
  CONTEXT_0: 0xa0,
} as const;

export interface DerNode {
  tag: number;
  /** The whole element: identifier, length and content. */
  raw: Buffer;
  /** The content octets (without the end-of-contents marker of an indefinite length). */
  content: Buffer;
  children: DerNode[];
}

export class DerError extends ServiceError<'unreadable', 'der_unreadable'> {
  override readonly name = 'DerError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('unreadable', 'der_unreadable', message, options);
  }
}

function byteAt(buffer: Buffer, index: number): number {
  const byte = buffer[index];
  if (byte === undefined) throw new DerError('Truncated ASN.1 data');
  return byte;
}

function readChildren(buffer: Buffer, start: number, end: number): DerNode[] {
  const children: DerNode[] = [];
  for (let offset = start; offset < end; ) {
    const child = readNode(buffer, offset);
    children.push(child.node);
    offset = child.next;
  }
  return children;
}

function readNode(buffer: Buffer, offset: number): { node: DerNode; next: number } {
  const tag = byteAt(buffer, offset);
  if ((tag & 0x1f) === 0x1f) throw new DerError('Multi-byte ASN.1 tags are not supported');
  const constructed = (tag & 0x20) !== 0;
  const lengthByte = byteAt(buffer, offset + 1);
  let contentStart = offset + 2;

  if (lengthByte === 0x80) {
    if (!constructed) throw new DerError('Indefinite length on a primitive ASN.1 element');
    const children: DerNode[] = [];
    let cursor = contentStart;
    while (byteAt(buffer, cursor) !== 0 || byteAt(buffer, cursor + 1) !== 0) {
      const child = readNode(buffer, cursor);
      children.push(child.node);
      cursor = child.next;
    }
    const next = cursor + 2;
    return {
      node: { tag, raw: buffer.subarray(offset, next), content: buffer.subarray(contentStart, cursor), children },
      next,
    };
  }

  let length = lengthByte;
  if (lengthByte & 0x80) {
    const size = lengthByte & 0x7f;
    if (size > 4) throw new DerError('ASN.1 length too large');
    length = 0;
    for (let i = 0; i < size; i++) length = length * 256 + byteAt(buffer, contentStart + i);
    contentStart += size;
  }
  const next = contentStart + length;
  if (next > buffer.length) throw new DerError('Truncated ASN.1 data');
  const content = buffer.subarray(contentStart, next);
  const children = constructed ? readChildren(buffer, contentStart, next) : [];
  return { node: { tag, raw: buffer.subarray(offset, next), content, children }, next };
}

export function readDer(buffer: Buffer): DerNode {
  return readNode(buffer, 0).node;
}

export function child(node: DerNode, index: number, tag?: number): DerNode {
  const found = node.children[index];
  if (!found) throw new DerError(`Missing ASN.1 element #${index}`);
  if (tag !== undefined && found.tag !== tag) {
    throw new DerError(`ASN.1 element #${index} has tag 0x${found.tag.toString(16)}, expected 0x${tag.toString(16)}`);
  }
  return found;
}

export function oidOf(node: DerNode): string {
  if (node.tag !== Tag.OID) throw new DerError('Expected an OBJECT IDENTIFIER');
  const bytes = node.content;
  const first = byteAt(bytes, 0);
  const arcs = [Math.min(2, Math.floor(first / 40)), first - Math.min(2, Math.floor(first / 40)) * 40];
  let value = 0;
  for (let i = 1; i < bytes.length; i++) {
    const byte = byteAt(bytes, i);
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) {
      arcs.push(value);
      value = 0;
    }
  }
  return arcs.join('.');
}

/** An OCTET STRING's bytes, joining the chunks of a constructed (BER) one. */
export function octetsOf(node: DerNode): Buffer {
  if (node.tag === Tag.OCTET_STRING) return node.content;
  if (node.tag === Tag.OCTET_STRING_CONSTRUCTED) return Buffer.concat(node.children.map(octetsOf));
  throw new DerError('Expected an OCTET STRING');
}
