// Jest loads transformers outside its own transform, so this file is plain JavaScript.
/**
 * Jest's TypeScript transform: esbuild strips the types of each file on its own, as ts-jest did in this project
 * (tsconfig's `isolatedModules`: ts-jest called TypeScript's `transpileModule`, no type check). Types are checked
 * by `npm run typecheck` (`tsc --noEmit` over `test/` too), which `npm test` runs before jest. esbuild does the
 * same stripping 20 to 50 times faster, which counts on a fresh clone, where every file of the product and the
 * tests is transformed once per run (jest's cache is keyed by the checkout's path).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { URL } from 'node:url';
import * as esbuild from 'esbuild';

const tsconfig = readFileSync(new URL('../../tsconfig.json', import.meta.url), 'utf8');
const compilerOptions = JSON.parse(tsconfig).compilerOptions;
// What esbuild reads of tsconfig when it strips types: imports only used as types go, `import type` always goes.
const tsconfigRaw = { compilerOptions: { verbatimModuleSyntax: compilerOptions.verbatimModuleSyntax, target: compilerOptions.target } };

export default {
  getCacheKey(source, filename, options) {
    return createHash('sha256')
      .update(esbuild.version)
      .update('\0')
      .update(tsconfig)
      .update('\0')
      .update(String(options.supportsStaticESM))
      .update('\0')
      .update(filename)
      .update('\0')
      .update(source)
      .digest('hex');
  },
  process(source, filename, options) {
    const { code, map } = esbuild.transformSync(source, {
      loader: 'ts',
      // ESM as the project runs it (jest's `extensionsToTreatAsEsm`); CommonJS only if jest ever asks for it.
      format: options.supportsStaticESM ? 'esm' : 'cjs',
      target: 'node22',
      sourcemap: 'external',
      sourcefile: filename,
      sourcesContent: false,
      tsconfigRaw,
    });
    return { code, map };
  },
};
