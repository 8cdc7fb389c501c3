/**
 * The inspector against real IPAs built here and served by a loopback host: every fact read back exactly,
 * and each kind of bad file or origin refused with its reason.
 */
import { InspectionDeferred, sameFile } from '../../shared/records/ipa-inspection';
import { inspectIpa, type InspectOptions } from '../../shared/domain/ipa/inspector';
import { EntitlementsScanner } from '../../shared/domain/ipa/macho-entitlements';
import { appPermissionsFor } from '../../shared/domain/sources/app-permissions';
import { buildIpa, defaultInfo, fatMachO, fileHost, machO, sha256, type HostedFile } from '../support/ipa-builder';
import { altStoreProblems } from '../support/feed-validators';
import { startLocalServer, type LocalServer } from '../support/local-server';

let host: LocalServer;
const files = new Map<string, HostedFile>();
beforeAll(async () => {
  host = await startLocalServer(fileHost(files));
});
afterAll(() => host.close());

const options = (over: Partial<InspectOptions> = {}): InspectOptions => ({ maxBytes: 50 * 1024 * 1024, timeoutMs: 10_000, onTimeout: 'fail', now: 1_800_000_000, ...over });
let counter = 0;
function serve(file: HostedFile): string {
  const path = `/f${++counter}.ipa`;
  files.set(path, file);
  return `${host.url}${path}`;
}

describe('reading an IPA', () => {
  test('XML Info.plist and a thin signed executable: every field exactly, with the SHA-256 and size of the file', async () => {
    const ipa = await buildIpa({ plist: 'xml' });
    const url = serve({ body: ipa, etag: '"v1"', lastModified: 'Wed, 25 Nov 2026 08:00:00 GMT' });
    const result = await inspectIpa(url, options());
    expect(result).toEqual({
      state: 'ok',
      url,
      validators: { length: ipa.length, etag: '"v1"', lastModified: 'Wed, 25 Nov 2026 08:00:00 GMT' },
      inspectedAt: 1_800_000_000,
      facts: {
        sha256: sha256(ipa),
        size: ipa.length,
        bundleIdentifier: 'com.example.player',
        version: '2.1.0',
        buildVersion: '210',
        minOSVersion: '15.0',
        displayName: 'Player',
        privacy: { NSCameraUsageDescription: 'Scan codes with the camera', NSPhotoLibraryUsageDescription: 'Save pictures to your library' },
        entitlements: ['application-identifier', 'get-task-allow'],
      },
    });
  });

  test('a binary Info.plist and a fat executable: the entitlements of every slice', async () => {
    const executable = fatMachO([
      machO({ entitlements: { 'application-identifier': 'T.x', 'com.apple.developer.networking.wifi-info': true }, codeBytes: 70_000 }),
      machO({ entitlements: { 'application-identifier': 'T.x', 'keychain-access-groups': ['T.x'] }, codeBytes: 90_000 }),
    ]);
    const info = defaultInfo({ CFBundleIdentifier: 'com.example.fat', CFBundleShortVersionString: '3.0', CFBundleVersion: '300.1', MinimumOSVersion: '14.2', NSMicrophoneUsageDescription: 'Record voice notes' });
    delete info.CFBundleDisplayName;
    info.CFBundleName = 'Fat Player';
    const ipa = await buildIpa({ plist: 'binary', info, executable });
    const result = await inspectIpa(serve({ body: ipa }), options());
    expect(result.state).toBe('ok');
    if (result.state !== 'ok') return;
    expect(result.facts).toMatchObject({
      sha256: sha256(ipa),
      size: ipa.length,
      bundleIdentifier: 'com.example.fat',
      version: '3.0',
      buildVersion: '300.1',
      minOSVersion: '14.2',
      displayName: 'Fat Player',
      entitlements: ['application-identifier', 'com.apple.developer.networking.wifi-info', 'keychain-access-groups'],
    });
    expect(result.facts.privacy.NSMicrophoneUsageDescription).toBe('Record voice notes');
  });

  test('an unsigned executable has no entitlements; a file without length is measured as it streams', async () => {
    const ipa = await buildIpa({ executable: machO({ signed: false }) });
    const result = await inspectIpa(serve({ body: ipa, noLength: true }), options());
    expect(result).toMatchObject({ state: 'ok', validators: { length: ipa.length }, facts: { entitlements: [], size: ipa.length, sha256: sha256(ipa) } });
  });

  test('the entitlements scanner reads the same fed one byte at a time', () => {
    const executable = fatMachO([machO({ entitlements: { a: true }, codeBytes: 3000 }), machO({ entitlements: { b: true }, codeBytes: 5000 })]);
    const scanner = new EntitlementsScanner();
    for (let i = 0; i < executable.length; i++) scanner.push(executable.subarray(i, i + 1));
    expect(scanner.finish()).toEqual(['a', 'b']);
  });
});

describe('refusing what is not an installable IPA', () => {
  test('a zip bomb: an Info.plist that inflates to 50 MB is refused before it is inflated', async () => {
    const info = defaultInfo({ Padding: ' '.repeat(50 * 1024 * 1024) });
    const ipa = await buildIpa({ info });
    expect(ipa.length).toBeLessThan(1024 * 1024);
    expect(await inspectIpa(serve({ body: ipa }), options())).toMatchObject({ state: 'failed', failure: 'invalid' });
  });

  test('a zip bomb: an executable that inflates far beyond the file is refused', async () => {
    const executable = Buffer.concat([machO({ codeBytes: 1000 }), Buffer.alloc(40 * 1024 * 1024)]);
    const ipa = await buildIpa({ executable });
    expect(await inspectIpa(serve({ body: ipa }), options())).toMatchObject({ state: 'failed', failure: 'invalid' });
  });

  test('an entry whose data inflates past the size it declares is refused (yauzl checks it)', async () => {
    const ipa = await buildIpa();
    // Rewrite Info.plist's declared uncompressed size (local header and central directory) to 10 bytes.
    const name = Buffer.from('Payload/Player.app/Info.plist');
    const patched = Buffer.from(ipa);
    for (let at = patched.indexOf(name); at !== -1; at = patched.indexOf(name, at + 1)) {
      const local = at >= 30 && patched.readUInt32LE(at - 30) === 0x04034b50;
      const central = at >= 46 && patched.readUInt32LE(at - 46) === 0x02014b50;
      if (local) patched.writeUInt32LE(10, at - 30 + 22);
      if (central) patched.writeUInt32LE(10, at - 46 + 24);
    }
    const result = await inspectIpa(serve({ body: patched }), options());
    expect(result).toMatchObject({ state: 'failed', failure: 'invalid' });
    expect(result.state === 'failed' && result.detail).toMatch(/too many bytes/);
  });

  test('a truncated file (served whole, with its own length) is not a zip', async () => {
    const ipa = await buildIpa();
    expect(await inspectIpa(serve({ body: ipa.subarray(0, Math.floor(ipa.length / 2)) }), options())).toMatchObject({ state: 'failed', failure: 'invalid' });
  });

  test('a download cut short by the origin is refused as the origin failing, not read', async () => {
    const ipa = await buildIpa();
    expect(await inspectIpa(serve({ body: ipa, cutAfter: 1000 }), options())).toMatchObject({ state: 'failed', failure: 'unreachable' });
  });

  test('a non-zip (an HTML page), and a zip without Payload/*.app/Info.plist', async () => {
    expect(await inspectIpa(serve({ body: Buffer.from('<html><body>Download</body></html>') }), options())).toMatchObject({ state: 'failed', failure: 'invalid' });
    const stray = await buildIpa({ appName: 'Player', files: {} });
    const renamed = Buffer.from(stray.toString('latin1').replaceAll('Payload/', 'Paylaod/'), 'latin1');
    expect(await inspectIpa(serve({ body: renamed }), options())).toMatchObject({ state: 'failed', failure: 'invalid' });
  });

  test('a file over the cap: refused from its Content-Length, and while streaming when it announces none', async () => {
    const ipa = await buildIpa();
    expect(await inspectIpa(serve({ body: ipa }), options({ maxBytes: 10_000 }))).toMatchObject({ state: 'failed', failure: 'too_large' });
    expect(await inspectIpa(serve({ body: ipa, noLength: true }), options({ maxBytes: 10_000 }))).toMatchObject({ state: 'failed', failure: 'too_large' });
  });

  test('a slow origin: the background job refuses it (timeout), a request hands it to the job', async () => {
    const ipa = await buildIpa();
    const url = serve({ body: ipa, drip: { bytes: 1024, everyMs: 100 } });
    expect(await inspectIpa(url, options({ timeoutMs: 500 }))).toMatchObject({ state: 'failed', failure: 'timeout' });
    await expect(inspectIpa(url, options({ timeoutMs: 500, onTimeout: 'defer' }))).rejects.toBeInstanceOf(InspectionDeferred);
  });

  test('an origin that answers an error is unreachable, with its status', async () => {
    expect(await inspectIpa(serve({ body: Buffer.alloc(0), status: 503 }), options())).toMatchObject({ state: 'failed', failure: 'unreachable', status: 503 });
    expect(await inspectIpa(`${host.url}/missing.ipa`, options())).toMatchObject({ state: 'failed', failure: 'unreachable', status: 404 });
  });
});

describe('the rules around an inspection', () => {
  const ok = (privacy: Record<string, string>, entitlements: string[]) =>
    ({
      state: 'ok',
      url: 'https://x/a.ipa',
      validators: { length: 1, etag: undefined, lastModified: undefined },
      inspectedAt: 0,
      facts: { sha256: '', size: 1, bundleIdentifier: 'a.b', version: '1', buildVersion: '1', minOSVersion: '', displayName: '', privacy, entitlements },
    }) as const;

  test("appPermissions: the IPA's descriptions, plus reseller additions only for keys the IPA lacks; the IPA's entitlements", () => {
    const inspection = ok({ NSCameraUsageDescription: 'IPA camera text' }, ['get-task-allow']);
    expect(
      appPermissionsFor(inspection, {
        entitlements: ['com.apple.developer.extra'],
        privacy: { NSCameraUsageDescription: 'reseller camera text', NSLocationWhenInUseUsageDescription: 'Find shops near you', NSMicrophoneUsageDescription: ' ' },
      }),
    ).toEqual({
      entitlements: ['get-task-allow'],
      privacy: { NSCameraUsageDescription: 'IPA camera text', NSLocationWhenInUseUsageDescription: 'Find shops near you' },
    });
    expect(appPermissionsFor(ok({}, []))).toBeUndefined();
    expect(appPermissionsFor(undefined, { entitlements: ['b', 'a', 'a'] })).toEqual({ entitlements: ['a', 'b'], privacy: {} });
  });

  test('the same file needs an ETag or Last-Modified that still matches, and the same length', () => {
    const stored = { length: 10, etag: '"a"', lastModified: undefined };
    expect(sameFile(stored, { length: 10, etag: '"a"', lastModified: undefined })).toBe(true);
    expect(sameFile(stored, { length: 11, etag: '"a"', lastModified: undefined })).toBe(false);
    expect(sameFile(stored, { length: 10, etag: '"b"', lastModified: undefined })).toBe(false);
    expect(sameFile(stored, { length: 10, etag: undefined, lastModified: undefined })).toBe(false);
  });
});

describe("the feed's appPermissions under AltStore's rules", () => {
  const doc = (appPermissions: unknown) => ({
    name: 'S',
    identifier: 'local.s',
    sourceURL: 'http://127.0.0.1/api/rjy/s/appstore',
    apps: [
      {
        name: 'A',
        bundleIdentifier: 'a.b',
        developerName: 'D',
        localizedDescription: 'x',
        iconURL: 'https://x/i.png',
        appPermissions,
        versions: [{ version: '1', date: '2026-11-26T08:00:00Z', downloadURL: 'https://x/a.ipa', size: 1, sha256: 'a'.repeat(64) }],
      },
    ],
  });

  test('a privacy permission without a usage description is what AltStore refuses; the merge never produces one', () => {
    expect(altStoreProblems(doc({ entitlements: ['get-task-allow'], privacy: { NSCameraUsageDescription: '' } }))).toContain('apps[0].appPermissions.privacy.NSCameraUsageDescription has no usage description');
    const merged = appPermissionsFor(undefined, { privacy: { NSCameraUsageDescription: '', NSMicrophoneUsageDescription: 'Talk' } });
    expect(altStoreProblems(doc(merged))).toEqual([]);
  });
});
