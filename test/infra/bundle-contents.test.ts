/**
 * What each function bundle carries, built with the stack's esbuild settings beside a bare handler that reads
 * one item through the SDK v3 document client: no PKCS#12 code anywhere (the customer .p12 is prepared on the
 * operator side), no Apple client in functions that never talk to Apple, and sizes within their ratio of the
 * bare bundle (size is deterministic; import time is measured by `npm run bench`).
 */
import { BASELINE, buildBundles, includesPackage, readBundle, type BuiltBundle } from '../bench/bundles';
import { allowedRatio, makesIdentities, readsIpas, talksToApple } from '../bench/bundle-limits';
import { catalog } from '../../shared/i18n/catalog';
import { languages } from '../../shared/i18n/languages';
import { authorizers, routes, scheduledJobs, streamConsumers } from '../../shared/routes';

let bundles: Array<BuiltBundle & { inputs: string[] }>;
beforeAll(async () => {
  bundles = await buildBundles();
}, 300_000); // 46 bundles: about 80 s alone, over 120 s while other suites run

const functions = () => bundles.filter((b) => b.name !== BASELINE);
const xmlAllowed = (fn: string, pkg: string) => (readsIpas.has(fn) && ['plist', '@xmldom/xmldom', 'xmlbuilder'].includes(pkg)) || (makesIdentities.has(fn) && pkg === 'node-forge');

test('every function is built, and none carries node-forge (but the one that makes distribution identities), an XML library or the KMS client', () => {
  expect(functions().map((b) => b.name).sort()).toEqual([...routes, ...scheduledJobs, ...authorizers, ...streamConsumers].map((e) => e.function).sort());
  for (const b of functions()) {
    for (const pkg of ['node-forge', 'plist', '@xmldom/xmldom', 'xmlbuilder', '@aws-sdk/client-kms']) {
      expect([b.name, pkg, includesPackage(b.inputs, pkg)]).toEqual([b.name, pkg, xmlAllowed(b.name, pkg) && includesPackage(b.inputs, pkg)]);
    }
    if (!makesIdentities.has(b.name)) expect([b.name, b.inputs.filter((i) => /shared\/apple\/p12-(export|reader)/.test(i))]).toEqual([b.name, []]);
  }
});

test('functions that never talk to Apple carry no Apple client code', () => {
  for (const b of functions().filter((f) => !talksToApple.has(f.name))) {
    expect([b.name, b.inputs.filter((i) => i.includes('shared/apple/'))]).toEqual([b.name, []]);
  }
});

test('zod only in its tree-shakable mini form', () => {
  for (const b of functions()) expect([b.name, b.inputs.filter((i) => /node_modules\/zod\/v4\/classic\//.test(i))]).toEqual([b.name, []]);
});

/**
 * The messages a function answers with travel in its bundle (shared/i18n/localize.ts): every message key its
 * code names as a string must have its translations in the bundle, so no answer falls back to a bare key.
 * Scheduled jobs and the authorizer answer nobody in a language.
 */
test('each route function carries the translations of every message key its code names, and its own route', () => {
  for (const route of routes) {
    const text = readBundle(functions().find((b) => b.name === route.function)!.file);
    const named = new Set([...text.matchAll(/["'`]([a-z][a-z0-9_]*)["'`]/g)].map((m) => m[1]));
    const untranslated = Object.entries(catalog).filter(([key, translations]) => named.has(key) && !languages.every((lang) => text.includes(translations[lang])));
    expect([route.function, untranslated.map(([key]) => key)]).toEqual([route.function, []]);
    // The handler is configured from its own entry of the route table (a copied handler naming another route fails).
    expect([route.function, text.includes(JSON.stringify(route.path))]).toEqual([route.function, true]);
  }
});

test('each bundle is within its ratio of the bare SDK bundle: 1.3×, 1.6× for the add functions and the jobs, 1.9× for the IPA readers, 2.6× for CMS', () => {
  const base = bundles.find((b) => b.name === BASELINE)!;
  const over = functions().filter((b) => b.bytes / base.bytes > allowedRatio(b.name));
  expect(over.map((b) => `${b.name} ${(b.bytes / base.bytes).toFixed(3)}`)).toEqual([]);
});
