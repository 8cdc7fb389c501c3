// Jest loads test environments outside its TypeScript transform, so this file is plain JavaScript.
import vm from 'node:vm';
import NodeEnvironment from 'jest-environment-node';

/** Deletes every table whose name starts with `prefix` (names list in order, so they follow the prefix). */
async function dropTables(endpoint, prefix) {
  const { DynamoDBClient, ListTablesCommand, DeleteTableCommand } = await import('@aws-sdk/client-dynamodb');
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    const names = [];
    let start = prefix;
    for (;;) {
      const page = await client.send(new ListTablesCommand({ ExclusiveStartTableName: start, Limit: 100 }));
      const mine = (page.TableNames ?? []).filter((name) => name.startsWith(prefix));
      names.push(...mine);
      if (mine.length < (page.TableNames ?? []).length || !page.LastEvaluatedTableName) break;
      start = page.LastEvaluatedTableName;
    }
    await Promise.all(names.map((TableName) => client.send(new DeleteTableCommand({ TableName }))));
  } catch {
    // Cleaning up only: DynamoDB Local stopping at the end of the run is no failure of the file.
  } finally {
    client.destroy();
  }
}

/**
 * Jest's Node environment, with the test file's global object an ordinary object instead of a contextified
 * Proxy. Jest 30 builds each file's context on a Proxy (to delete what a file leaves on its globals at
 * teardown), and V8 then looks up every global (`Object`, `String`, `Math`, …) of the code under test through
 * interceptors: zod, node-forge and the SDK's marshalling ran 4 to 10 times slower than in plain Node.
 * Node's `vm.constants.DONT_CONTEXTIFY` (Node 22.8) makes a context whose global is a plain object, where
 * they run as fast as outside jest. Each file still gets its own context; it is dropped at teardown.
 */
export default class FastGlobalsEnvironment extends NodeEnvironment {
  /**
   * A DynamoDB Local file's tables (`useIsolatedTables`, under its TABLE_PREFIX) are deleted once the file has
   * ended, after every hook of it. Nothing reads them again, and DynamoDB Local's CreateTable slows with every
   * table it holds: a run leaving its ~4,000 tables behind paid 0.1 s per file's tables early and 0.5 s late.
   */
  async teardown() {
    const prefix = this.global.process?.env?.TABLE_PREFIX;
    const endpoint = this.global.process?.env?.DYNAMODB_ENDPOINT;
    try {
      if (prefix && endpoint) await dropTables(endpoint, prefix);
    } finally {
      await super.teardown();
    }
  }

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
