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
  // Two workers a core: an end-to-end file's processes need a core about half the time (the rest
  // they wait, on their warped clocks, for poll intervals and the simulator), so two a core keep
  // the cores busy without queueing. Three a core win a tenth on a quiet machine and queue each
  // run behind five others on a busy one. Measured on 2 cores with other work on them (load 6 to
  // 9; `node scripts/bench-tests.js --maxWorkers=N`): 4 workers 122 s, 6 workers 110 s; beside
  // four busy processes as well (`--busy=4`), 4 workers pass in 200 to 300 s.
  maxWorkers: availableParallelism() * 2,
  collectCoverageFrom: ['src/**/*.ts', '!src/index.ts'],
  coverageReporters: ['text-summary', 'lcov'],
  // The longest unit test works about 5 s on a quiet machine (a demo run to its timeout, the
  // properties of the schedule; `node scripts/bench-tests.js` lists them): a test's limit is that
  // on a machine ten times slower, as the end-to-end tests' `SLOWER`. Those tests take theirs from
  // their runs instead (`runLimitMs` in __tests__/e2e/harness.ts).
  testTimeout: 5_000 * 10
}
