// Jest loads its runtime outside its TypeScript transform (with `require`, which takes ES modules on Node 22),
// so this file is plain JavaScript.
/**
 * Jest's runtime, keeping between a worker's test files what cannot differ from one file to the next.
 *
 * Each test file gets a fresh module registry, so each file reads and compiles the same ~700 modules (the SDK,
 * zod, the product) again. Jest already keeps each file's *transformed* code for the worker's life, but not the
 * source text it reads first, and V8 compiled every module again for every file (a profile of a whole run put
 * 34 s in compiling modules; jest compiles each with a dynamic-import callback of its own). So a worker keeps:
 * - **the source text of every file it read**, keyed by path and modification time (a file edited during a run
 *   is read again);
 * - **V8's code cache of every module it compiled**, handed back to V8 (`cachedData`) when a later file
 *   compiles the same text. V8 checks the cache against the text and compiles afresh on any mismatch, so a
 *   module never runs other code than its source. A CommonJS module's cache is taken after its file ran, so it
 *   holds the functions that file called too; an ES module's can only be taken before it runs (Node's rule).
 * Nothing a test can see changes: each file still gets its own module instances and its own globals.
 */
import { statSync } from 'node:fs';
import vm from 'node:vm';
import Runtime from 'jest-runtime';

const sources = new Map();
const scriptCaches = new Map();
const moduleCaches = new Map();
let scriptsToCache = [];

function cachedEntry(caches, key, source) {
  const entry = caches.get(key);
  return entry && entry.source === source ? entry.data : undefined;
}

// Jest compiles a CommonJS module with `vm.compileFunction`, which cannot hand out a code cache after the module
// ran; the same function, compiled as a script that evaluates to it, can. Only line 1's columns move.
const compileFunction = vm.compileFunction;
vm.compileFunction = function compileWithCache(source, params = [], options = {}) {
  if (!options.parsingContext || !options.filename) return compileFunction.call(this, source, params, options);
  const cachedData = cachedEntry(scriptCaches, options.filename, source);
  const script = new vm.Script(`(function (${params.join(', ')}) {${source}\n})`, {
    filename: options.filename,
    importModuleDynamically: options.importModuleDynamically,
    cachedData,
  });
  if (!cachedData || script.cachedDataRejected) scriptsToCache.push({ key: options.filename, source, script });
  return script.runInContext(options.parsingContext);
};

const SourceTextModule = vm.SourceTextModule;
if (SourceTextModule) {
  vm.SourceTextModule = class CachedSourceTextModule extends SourceTextModule {
    constructor(source, options = {}) {
      const cachedData = options.identifier ? cachedEntry(moduleCaches, options.identifier, source) : undefined;
      super(source, cachedData ? { ...options, cachedData } : options);
      if (options.identifier && (!cachedData || this.cachedDataRejected)) {
        moduleCaches.set(options.identifier, { source, data: this.createCachedData() });
      }
    }
  };
}

class WorkerRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    const readFile = this.fileCache.readFile.bind(this.fileCache);
    this.fileCache.readFile = (filename) => {
      const key = `${filename}\0${statSync(filename).mtimeMs}`;
      let source = sources.get(key);
      if (source === undefined) {
        source = readFile(filename);
        sources.set(key, source);
      }
      return source;
    };
  }

  teardown() {
    super.teardown();
    for (const { key, source, script } of scriptsToCache) scriptCaches.set(key, { source, data: script.createCachedData() });
    scriptsToCache = [];
  }
}

export default WorkerRuntime;
