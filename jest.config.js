// Two projects, told apart by file name: a `*.db.test.ts` file runs against DynamoDB Local, which the global
// setup starts once per run, and only when the run includes such a file; every other `*.test.ts` needs nothing,
// so `npm run test:pure` (or jest on a folder of pure tests) runs without Java.
const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  setupFiles: ['<rootDir>/test/support/env.ts'],
};

export default {
  maxWorkers: 2,
  // Read from here only: a project's own testTimeout is ignored.
  testTimeout: 30_000,
  projects: [
    { ...common, displayName: 'pure', testMatch: ['<rootDir>/test/**/*.test.ts'], testPathIgnorePatterns: ['/node_modules/', '\\.db\\.test\\.ts$'] },
    {
      ...common,
      displayName: 'db',
      testMatch: ['<rootDir>/test/**/*.db.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.js',
      globalTeardown: '<rootDir>/test/support/global-teardown.js',
    },
  ],
};
