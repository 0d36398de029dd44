/** Jest in native ESM mode (run with NODE_OPTIONS=--experimental-vm-modules), TS transpiled by ts-jest. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/test/conformance/', '/dist/'],
  // Slowest recorded suites first (test/suite-durations.json): a clean clone has no jest cache to order by.
  testSequencer: "<rootDir>/test/helpers/slowest-first-sequencer.js",
  globalSetup: "<rootDir>/test/helpers/global-setup.js",
  testTimeout: 60000,
  maxWorkers: 2,
};
