import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// What the functions and the operator CLI raise. The App Store Connect simulator (infra/asc-simulator/) answers
// in Apple's terms and the local runtime (infra/local/) stops a developer's run: both stay outside the family.
const ROOT = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['functions', 'shared', 'infra/admin'];

// The console's web app (functions/console/web) runs in the reseller's browser, not in the service: its errors
// are what it shows a person, outside the service's family.
const BROWSER_APP = path.join(ROOT, 'functions', 'console', 'web');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const full = path.join(folder, entry);
    if (full === BROWSER_APP) return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

test('every error class of functions/, shared/ and infra/admin/ is a ServiceError', () => {
  const outside = FOLDERS.flatMap((folder) => sourceFiles(path.join(ROOT, folder)))
    .filter((file) => /class \w+(<[^>]*>)? extends Error\b/.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(ROOT, file));
  expect(outside).toEqual(['shared/service-error.ts']);
});
