/**
 * The repository stands alone: a user who clones it has nothing beside it, so no file may point at
 * documents outside it (the design notes and interface spec it was built from are restated in the README).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// Built from pieces so this file does not match itself.
const outside = new RegExp(['\\.\\./shared/(?:spec|asc|DES', 'IGN|STY', 'LE|hooks)', '|DES', 'IGN\\s*§', '|interface', '\\.md'].join(''));

test('no tracked file refers to a document outside the repository', () => {
  const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|js|md|json|sh)$|^\.ci\//.test(f) && !f.endsWith('package-lock.json') && !f.startsWith('test/support/apple/'));
  const offenders = files.filter((file) => outside.test(readFileSync(file, 'utf8')));
  expect(offenders).toEqual([]);
});
