/**
 * The entitlements of an iOS executable, read from its code signature as the bytes stream past: the
 * executable is often hundreds of megabytes and only its headers and signature matter, so nothing else is
 * kept. No maintained npm package reads Mach-O code signatures (the ones that exist parse whole files in
 * memory, or only headers), hence this reader of the few structures involved:
 * - a fat (universal) file: `0xcafebabe` (or `0xcafebabf`, 64-bit offsets), big-endian, a table of slices;
 * - each Mach-O slice (`0xfeedfacf`/`0xfeedface`, little-endian on every Apple CPU): header, then load
 *   commands; `LC_CODE_SIGNATURE` (0x1d) gives the signature's offset and size in the slice;
 * - the signature: a SuperBlob (`0xfade0cc0`, big-endian) whose index points at the entitlements blob
 *   (`0xfade7171`, slot 5), an XML property list.
 */
import { InspectionError } from '../../records/ipa-inspection';
import { parseDictionary } from './property-list';

const FAT_MAGIC = 0xcafebabe;
const FAT_MAGIC_64 = 0xcafebabf;
const MH_MAGIC = 0xfeedface;
const MH_MAGIC_64 = 0xfeedfacf;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_EMBEDDED_ENTITLEMENTS = 0xfade7171;
const CSSLOT_ENTITLEMENTS = 5;

/** Beyond these, the file is not an executable this service should read further. */
const LIMITS = { slices: 16, loadCommandBytes: 4 * 1024 * 1024, signatureBytes: 16 * 1024 * 1024 } as const;

interface Wanted {
  start: number;
  end: number;
  filled: number;
  bytes: Buffer;
  done: (bytes: Buffer) => void;
}

const invalid = (detail: string) => new InspectionError('invalid', `executable: ${detail}`);

/**
 * Feed it the executable's bytes in order with `push`, then `finish()`: the union of the entitlement keys of
 * every slice's signature (sorted), `[]` for an unsigned executable. Malformed structures are `invalid`.
 */
export class EntitlementsScanner {
  private position = 0;
  private readonly wanted: Wanted[] = [];
  private readonly entitlements = new Set<string>();
  private slicesSeen = 0;
  private slicesSigned = 0;
  private error: InspectionError | undefined;

  constructor() {
    // The first 8 bytes say whether this is a fat file or one slice.
    this.want(0, 8, (head) => {
      const magicBE = head.readUInt32BE(0);
      if (magicBE === FAT_MAGIC || magicBE === FAT_MAGIC_64) {
        const count = head.readUInt32BE(4);
        if (count === 0 || count > LIMITS.slices) throw invalid(`a fat file with ${count} slices`);
        const entrySize = magicBE === FAT_MAGIC ? 20 : 32;
        this.want(8, 8 + count * entrySize, (table) => {
          const offsets: number[] = [];
          for (let i = 0; i < count; i++) {
            const at = i * entrySize;
            offsets.push(magicBE === FAT_MAGIC ? table.readUInt32BE(at + 8) : Number(table.readBigUInt64BE(at + 8)));
          }
          // Slices are read in file order, as the bytes come.
          for (const offset of offsets.sort((a, b) => a - b)) this.slice(offset);
        });
        return;
      }
      this.slice(0);
    });
  }

  private want(start: number, end: number, done: (bytes: Buffer) => void): void {
    if (start < this.position) throw invalid('structures out of order');
    if (end === start) return done(Buffer.alloc(0));
    this.wanted.push({ start, end, filled: 0, bytes: Buffer.alloc(end - start), done });
  }

  private slice(offset: number): void {
    this.slicesSeen++;
    this.want(offset, offset + 32, (header) => {
      const magic = header.readUInt32LE(0);
      if (magic !== MH_MAGIC && magic !== MH_MAGIC_64) throw invalid('not a Mach-O file');
      const commandCount = header.readUInt32LE(16);
      const commandBytes = header.readUInt32LE(20);
      if (commandBytes > LIMITS.loadCommandBytes) throw invalid('load commands too large');
      const headerSize = magic === MH_MAGIC_64 ? 32 : 28;
      this.want(offset + headerSize, offset + headerSize + commandBytes, (commands) => {
        let at = 0;
        for (let i = 0; i < commandCount; i++) {
          if (at + 8 > commands.length) throw invalid('truncated load commands');
          const cmd = commands.readUInt32LE(at);
          const size = commands.readUInt32LE(at + 4);
          if (size < 8 || at + size > commands.length) throw invalid('bad load command size');
          if (cmd === LC_CODE_SIGNATURE) {
            const dataOffset = commands.readUInt32LE(at + 8);
            const dataSize = commands.readUInt32LE(at + 12);
            if (dataSize > LIMITS.signatureBytes) throw invalid('code signature too large');
            this.slicesSigned++;
            this.want(offset + dataOffset, offset + dataOffset + dataSize, (signature) => this.readSignature(signature));
          }
          at += size;
        }
      });
    });
  }

  private readSignature(signature: Buffer): void {
    if (signature.length < 12 || signature.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE) throw invalid('not a code signature');
    const count = signature.readUInt32BE(8);
    for (let i = 0; i < count; i++) {
      const at = 12 + i * 8;
      if (at + 8 > signature.length) throw invalid('truncated code signature index');
      if (signature.readUInt32BE(at) !== CSSLOT_ENTITLEMENTS) continue;
      const blob = signature.readUInt32BE(at + 4);
      if (blob + 8 > signature.length || signature.readUInt32BE(blob) !== CSMAGIC_EMBEDDED_ENTITLEMENTS) throw invalid('bad entitlements blob');
      const length = signature.readUInt32BE(blob + 4);
      if (length < 8 || blob + length > signature.length) throw invalid('bad entitlements blob length');
      const dictionary = parseDictionary(signature.subarray(blob + 8, blob + length), 'the entitlements');
      for (const key of Object.keys(dictionary)) this.entitlements.add(key);
    }
  }

  /** Takes the next bytes of the executable. */
  push(chunk: Buffer): void {
    if (this.error) return;
    const chunkStart = this.position;
    const chunkEnd = chunkStart + chunk.length;
    try {
      // A completed structure may ask for more that starts inside this same chunk: loop until none is left.
      for (let progressed = true; progressed; ) {
        progressed = false;
        for (const wanted of [...this.wanted]) {
          const from = Math.max(wanted.start + wanted.filled, chunkStart);
          const to = Math.min(wanted.end, chunkEnd);
          if (from >= to) continue;
          chunk.copy(wanted.bytes, from - wanted.start, from - chunkStart, to - chunkStart);
          wanted.filled = to - wanted.start;
          if (wanted.filled === wanted.end - wanted.start) {
            this.wanted.splice(this.wanted.indexOf(wanted), 1);
            // Later wants are never before this point; the position stays at the chunk's start meanwhile.
            wanted.done(wanted.bytes);
            progressed = true;
          }
        }
      }
    } catch (error) {
      this.error = error instanceof InspectionError ? error : invalid((error as Error).message);
    }
    this.position = chunkEnd;
  }

  finish(): string[] {
    if (this.error) throw this.error;
    if (this.wanted.length) throw invalid('the file ends inside its headers or signature');
    if (this.slicesSeen === 0) throw invalid('no Mach-O slice');
    return [...this.entitlements].sort();
  }

  /** Whether every slice carried a code signature (an unsigned executable has no entitlements to read). */
  get signed(): boolean {
    return this.slicesSigned === this.slicesSeen;
  }
}
