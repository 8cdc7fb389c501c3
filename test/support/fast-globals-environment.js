// Jest loads test environments outside its TypeScript transform, so this file is plain JavaScript.
import { AsyncLocalStorage } from 'node:async_hooks';
import vm from 'node:vm';
import NodeEnvironment from 'jest-environment-node';

/**
 * The AsyncLocalStorage instances the running file has entered (the write gate's: every file loads the product
 * afresh, so each has its own instance). Node keeps an entered instance in its list of active storages until
 * `disable()`, and walks that list for every promise any later file creates: with ~50 files per worker, the
 * worker's last files spent more time propagating dead files' storages than running their own code (38 s of
 * the run's CPU in `_propagate` and `promiseInitHook`). Node's `AsyncLocalStorage` is one class for every
 * file (core modules are shared), so entering is noted here and the file's instances are disabled at its
 * teardown, as a Lambda instance (one module registry for its life) never needs.
 */
let entered = new Set();
for (const method of ['run', 'enterWith']) {
  const original = AsyncLocalStorage.prototype[method];
  AsyncLocalStorage.prototype[method] = function (...args) {
    entered.add(this);
    return original.apply(this, args);
  };
}

/**
 * What a worker's test files may share: compiled checks that are a pure function of their input (the OpenAPI
 * response validators), too costly to build again in every file. Each file reaches it through its global
 * `WORKER_MEMO` symbol (`test/support/worker-memo.ts`); nothing the product runs uses it.
 */
const WORKER_MEMO = Symbol.for('appsource.test.worker-memo');
const workerMemo = new Map();

/**
 * What the running file registered to be done once it has ended (`test/support/file-end.ts`): closing what it
 * leaves open, such as its DynamoDB clients' keep-alive sockets (four or five a file, open to DynamoDB Local
 * until the worker exits: a worker held over a hundred by its last file).
 */
const AT_FILE_END = Symbol.for('appsource.test.at-file-end');

/**
 * Jest's Node environment, with the test file's global object an ordinary object instead of a contextified
 * Proxy. Jest 30 builds each file's context on a Proxy (to delete what a file leaves on its globals at
 * teardown), and V8 then looks up every global (`Object`, `String`, `Math`, …) of the code under test through
 * interceptors: zod, node-forge and the SDK's marshalling ran 4 to 10 times slower than in plain Node.
 * Node's `vm.constants.DONT_CONTEXTIFY` (Node 22.8) makes a context whose global is a plain object, where
 * they run as fast as outside jest. Each file still gets its own context; it is dropped at teardown.
 */
export default class FastGlobalsEnvironment extends NodeEnvironment {
  constructor(config, context) {
    const createContext = vm.createContext;
    // The parent class calls vm.createContext once, in its constructor, and nothing else runs in between.
    vm.createContext = () => createContext(vm.constants.DONT_CONTEXTIFY);
    try {
      super(config, context);
    } finally {
      vm.createContext = createContext;
    }
    Object.defineProperty(this.global, WORKER_MEMO, { value: workerMemo });
    Object.defineProperty(this.global, AT_FILE_END, { value: [] });
  }

  async teardown() {
    try {
      for (const close of this.global[AT_FILE_END]) await close();
    } finally {
      await super.teardown();
      for (const storage of entered) storage.disable();
      entered = new Set();
    }
  }
}
