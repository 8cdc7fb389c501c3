/**
 * Reads what matters out of an IPA (a zip) on local disk with `yauzl`, a maintained zip reader that works by
 * random access (it reads the central directory, then only the entries asked for) and checks every entry's
 * real size against the size it declares. Zip bombs are refused by those declared sizes: Info.plist may not
 * claim more than 1 MiB, the executable more than the file cap, and an entry that inflates past its claim
 * fails the read.
 */
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { InspectionError, type IpaFacts } from '../../records/ipa-inspection';
import { EntitlementsScanner } from './macho-entitlements';
import { parseDictionary } from './property-list';

export const ARCHIVE_LIMITS = {
  infoPlistBytes: 1024 * 1024,
  /** More entries than any real app bundle has; past it the central directory is not walked. */
  entries: 500_000,
} as const;

const INFO_PLIST = /^Payload\/([^/]+)\.app\/Info\.plist$/;
const USAGE_KEY = /^NS[A-Za-z0-9]*UsageDescription$/;

const invalid = (detail: string) => new InspectionError('invalid', detail);

async function entriesOf(zip: ZipFile): Promise<Map<string, Entry>> {
  if (zip.entryCount > ARCHIVE_LIMITS.entries) throw invalid(`more than ${ARCHIVE_LIMITS.entries} entries`);
  const entries = new Map<string, Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

/** An entry's bytes into `sink`, refused before reading when it claims more than `maxBytes`. */
async function readEntry(zip: ZipFile, entry: Entry, maxBytes: number, sink: (chunk: Buffer) => void): Promise<void> {
  if (entry.uncompressedSize > maxBytes) throw invalid(`${entry.fileName} claims ${entry.uncompressedSize} bytes, more than ${maxBytes}`);
  const stream = await zip.openReadStreamPromise(entry);
  await pipeline(
    stream,
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        sink(chunk);
        callback();
      },
    }),
  );
}

async function entryBytes(zip: ZipFile, entry: Entry, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await readEntry(zip, entry, maxBytes, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks);
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Info.plist's facts and the executable's entitlements; `maxExecutableBytes` caps the executable's claimed size. */
export async function readIpaArchive(path: string, maxExecutableBytes: number): Promise<Omit<IpaFacts, 'sha256' | 'size'>> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, autoClose: false });
  } catch (error) {
    throw invalid(`not a zip archive (${(error as Error).message})`);
  }
  try {
    const entries = await entriesOf(zip);
    const plists = [...entries.keys()].filter((name) => INFO_PLIST.test(name));
    if (plists.length !== 1) throw invalid(plists.length === 0 ? 'no Payload/<name>.app/Info.plist' : 'more than one app in Payload/');
    const plistName = plists[0]!;
    const info = parseDictionary(await entryBytes(zip, entries.get(plistName)!, ARCHIVE_LIMITS.infoPlistBytes), 'Info.plist');
    const bundleIdentifier = text(info.CFBundleIdentifier);
    if (!bundleIdentifier) throw invalid('Info.plist names no CFBundleIdentifier');
    const executableName = text(info.CFBundleExecutable);
    if (!executableName || executableName.includes('/')) throw invalid('Info.plist names no CFBundleExecutable');
    const appDir = plistName.slice(0, -'Info.plist'.length);
    const executable = entries.get(`${appDir}${executableName}`);
    if (!executable) throw invalid(`the executable ${executableName} is missing`);
    const scanner = new EntitlementsScanner();
    await readEntry(zip, executable, maxExecutableBytes, (chunk) => scanner.push(chunk));
    const entitlements = scanner.finish();
    const privacy: Record<string, string> = {};
    for (const [key, value] of Object.entries(info)) if (USAGE_KEY.test(key) && typeof value === 'string') privacy[key] = value;
    return {
      bundleIdentifier,
      version: text(info.CFBundleShortVersionString),
      buildVersion: text(info.CFBundleVersion),
      minOSVersion: text(info.MinimumOSVersion),
      displayName: text(info.CFBundleDisplayName) || text(info.CFBundleName),
      privacy,
      entitlements,
    };
  } catch (error) {
    if (error instanceof InspectionError) throw error;
    // yauzl's own refusals: a corrupt or truncated archive, an entry larger than it declared.
    throw invalid(`unreadable archive (${(error as Error).message})`);
  } finally {
    zip.close();
  }
}
