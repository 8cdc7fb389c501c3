/**
 * Real IPAs, built here rather than shipped: a zip (yazl) with `Payload/<name>.app/Info.plist` (XML or binary
 * plist) and a Mach-O executable whose code signature carries an entitlements blob, thin or fat. The tests
 * build every case from it; `npm start` serves its demo apps' files from it (demo-downloads.ts).
 */
import { randomBytes } from 'node:crypto';
import { build, buildBinary, type PlistValue } from 'plist';
import yazl from 'yazl';

const CPU_ARM64 = 0x0100000c;
const CPU_ARM = 12;

/** A SuperBlob with a (dummy) code directory and, when given, an entitlements blob (XML plist). */
function codeSignature(entitlements: Record<string, PlistValue> | undefined): Buffer {
  const codeDirectory = Buffer.alloc(16);
  codeDirectory.writeUInt32BE(0xfade0c02, 0);
  codeDirectory.writeUInt32BE(16, 4);
  const blobs: Array<{ type: number; bytes: Buffer }> = [{ type: 0, bytes: codeDirectory }];
  if (entitlements) {
    const xml = Buffer.from(build(entitlements), 'utf8');
    const blob = Buffer.alloc(8 + xml.length);
    blob.writeUInt32BE(0xfade7171, 0);
    blob.writeUInt32BE(blob.length, 4);
    xml.copy(blob, 8);
    blobs.push({ type: 5, bytes: blob });
  }
  const headerSize = 12 + blobs.length * 8;
  const total = headerSize + blobs.reduce((n, b) => n + b.bytes.length, 0);
  const out = Buffer.alloc(total);
  out.writeUInt32BE(0xfade0cc0, 0);
  out.writeUInt32BE(total, 4);
  out.writeUInt32BE(blobs.length, 8);
  let offset = headerSize;
  blobs.forEach((b, i) => {
    out.writeUInt32BE(b.type, 12 + i * 8);
    out.writeUInt32BE(offset, 16 + i * 8);
    b.bytes.copy(out, offset);
    offset += b.bytes.length;
  });
  return out;
}

/**
 * A 64-bit little-endian Mach-O executable: header, one `LC_CODE_SIGNATURE` (left out when `signed` is false),
 * `codeBytes` of random "code", then the signature.
 */
export function machO(options: { entitlements?: Record<string, PlistValue>; codeBytes?: number; signed?: boolean; cpu?: number } = {}): Buffer {
  const signed = options.signed ?? true;
  const header = Buffer.alloc(32);
  header.writeUInt32LE(0xfeedfacf, 0);
  header.writeUInt32LE(options.cpu ?? CPU_ARM64, 4);
  header.writeUInt32LE(0, 8);
  header.writeUInt32LE(2, 12); // MH_EXECUTE
  header.writeUInt32LE(signed ? 1 : 0, 16);
  header.writeUInt32LE(signed ? 16 : 0, 20);
  const code = randomBytes(options.codeBytes ?? 200_000);
  if (!signed) return Buffer.concat([header, code]);
  const signature = codeSignature(options.entitlements);
  const command = Buffer.alloc(16);
  command.writeUInt32LE(0x1d, 0);
  command.writeUInt32LE(16, 4);
  command.writeUInt32LE(32 + 16 + code.length, 8);
  command.writeUInt32LE(signature.length, 12);
  return Buffer.concat([header, command, code, signature]);
}

/** A universal binary of the given slices, each aligned to 16 KiB as Apple's tools align them. */
export function fatMachO(slices: Buffer[]): Buffer {
  const align = 0x4000;
  const header = Buffer.alloc(8 + slices.length * 20);
  header.writeUInt32BE(0xcafebabe, 0);
  header.writeUInt32BE(slices.length, 4);
  const parts: Buffer[] = [];
  let offset = align;
  slices.forEach((slice, i) => {
    header.writeUInt32BE(i === 0 ? CPU_ARM : CPU_ARM64, 8 + i * 20);
    header.writeUInt32BE(0, 12 + i * 20);
    header.writeUInt32BE(offset, 16 + i * 20);
    header.writeUInt32BE(slice.length, 20 + i * 20);
    header.writeUInt32BE(14, 24 + i * 20);
    parts.push(slice);
    offset += Math.ceil(slice.length / align) * align;
  });
  const out = Buffer.alloc(offset);
  header.copy(out, 0);
  let at = align;
  for (const slice of parts) {
    slice.copy(out, at);
    at += Math.ceil(slice.length / align) * align;
  }
  return out;
}

export interface IpaSpec {
  appName?: string;
  info?: Record<string, PlistValue>;
  plist?: 'xml' | 'binary';
  executable?: Buffer;
  /** Extra entries, by path in the zip. */
  files?: Record<string, Buffer>;
}

export const defaultInfo = (overrides: Record<string, PlistValue> = {}): Record<string, PlistValue> => ({
  CFBundleIdentifier: 'com.example.player',
  CFBundleShortVersionString: '2.1.0',
  CFBundleVersion: '210',
  CFBundleExecutable: 'Player',
  CFBundleDisplayName: 'Player',
  MinimumOSVersion: '15.0',
  NSCameraUsageDescription: 'Scan codes with the camera',
  NSPhotoLibraryUsageDescription: 'Save pictures to your library',
  ...overrides,
});

export async function buildIpa(spec: IpaSpec = {}): Promise<Buffer> {
  const appName = spec.appName ?? 'Player';
  const info = spec.info ?? defaultInfo();
  const plistBytes = spec.plist === 'binary' ? Buffer.from(buildBinary(info)) : Buffer.from(build(info), 'utf8');
  const zip = new yazl.ZipFile();
  zip.addBuffer(plistBytes, `Payload/${appName}.app/Info.plist`);
  const executableName = typeof info.CFBundleExecutable === 'string' ? info.CFBundleExecutable : appName;
  zip.addBuffer(spec.executable ?? machO({ entitlements: { 'application-identifier': 'TEAM.com.example.player', 'get-task-allow': false } }), `Payload/${appName}.app/${executableName}`);
  zip.addBuffer(randomBytes(4096), `Payload/${appName}.app/Assets.car`);
  for (const [name, bytes] of Object.entries(spec.files ?? {})) zip.addBuffer(bytes, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

