// Jest loads test environments outside its TypeScript transform, so this file is plain JavaScript.
import vm from 'node:vm';
import NodeEnvironment from 'jest-environment-node';

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
  }
}
