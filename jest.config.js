import { availableParallelism } from 'node:os'

/** Settings every test file shares. */
const common = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1'
  },
  // Node's own type stripping (see the file); `npm run typecheck` checks the types.
  transform: { '^.+\\.ts$': '<rootDir>/scripts/strip-types.cjs' },
  clearMocks: true
}

/** @type {import('jest').Config} */
export default {
  projects: [
    {
      ...common,
      displayName: 'unit',
      roots: ['<rootDir>/__tests__'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/__tests__/e2e/']
    },
    {
      // The end-to-end tests run a bundle of the sources under test. Jest runs a project's
      // globalSetup only when one of its tests is selected, so other runs never wait for ncc;
      // it builds in the background, and these files start after the unit tests.
      ...common,
      displayName: 'e2e',
      roots: ['<rootDir>/__tests__/e2e'],
      globalSetup: '<rootDir>/__tests__/e2e/build-bundle.js'
    }
  ],
  reporters: ['default', '<rootDir>/scripts/test-counts.cjs'],
  testSequencer: '<rootDir>/scripts/test-sequencer.cjs',
  // The end-to-end tests still wait, on the warped clock, on the action starting and on the
  // simulator: with three workers per core (6 on 2 cores) the waits overlap and the cores stay
  // busy to the last file. Measured on 2 cores (`node scripts/bench-tests.js --maxWorkers=N`):
  // 5 workers 105 s, 6 94 s, 8 92 s; more than 6 gains nothing, the cores being full.
  maxWorkers: availableParallelism() * 3,
  collectCoverageFrom: ['src/**/*.ts', '!src/index.ts'],
  coverageReporters: ['text-summary', 'lcov'],
  testTimeout: 20000
}
