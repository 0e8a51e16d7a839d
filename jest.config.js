/**
 * Unit specs live beside the code; e2e specs drive the real app over HTTP against MariaDB and Redis;
 * browser specs drive the console in Debian's chromium against the real service started as a process.
 */
const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: { '^.+\\.ts$': 'ts-jest' },
  testEnvironment: 'node',
};
module.exports = {
  maxWorkers: 2,
  // Each e2e file loads the app anew and a worker grows by about 40 MB a file; past 1.2 GB its exit outlasted
  // jest's allowance at the end of a run ("failed to exit gracefully"): a worker past this is replaced when idle.
  workerIdleMemoryLimit: '512MB',
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', rootDir: 'src', testRegex: '.*\\.spec\\.ts$' },
    {
      ...common,
      displayName: 'console',
      rootDir: 'web/src',
      testRegex: '.*\\.spec\\.ts$',
      transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/../../tsconfig.json' }] },
    },
    {
      ...common,
      displayName: 'e2e',
      rootDir: '.',
      testRegex: 'test/.*\\.e2e-spec\\.ts$',
      setupFiles: ['<rootDir>/test/support/env.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      ...common,
      displayName: 'browser',
      rootDir: '.',
      testRegex: 'test/browser/.*\\.spec\\.ts$',
      setupFiles: ['<rootDir>/test/support/env.ts'],
      globalSetup: '<rootDir>/test/browser/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
