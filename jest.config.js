import { readFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'

const cores = availableParallelism()

/**
 * How many cores other work holds as the run starts: the processes ready to run now (Linux's
 * /proc/loadavg), the most of a few looks 10 ms apart, less this one; elsewhere the last
 * minute's load. Not the last minute's load where the count is known: it still holds an
 * `npm ci` that has just ended.
 */
async function coresHeld() {
  try {
    let most = 0
    for (let look = 0; look < 5; look++) {
      const [running] = readFileSync('/proc/loadavg', 'utf8').split(' ')[3]?.split('/') ?? []
      most = Math.max(most, Number(running) - 1)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    return Math.min(cores, Number.isFinite(most) ? most : 0)
  } catch {
    return Math.min(cores, Math.round(loadavg()[0] ?? 0))
  }
}

/**
 * What a worker's processes need of a core: about 0.3 (CPU time over wall time and workers,
 * measured on 2 cores: 4 workers 133 s over 112 s, 6 workers 138 s over 83 s); the rest of the
 * time they wait, on their warped clocks, for poll intervals and the simulator.
 */
const WORKER_CORES = 0.3

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
  // As many workers as the cores other work leaves free can run, and one a core at least: on a
  // quiet machine the cores stay busy while runs wait (6 on 2 cores: 80 to 83 s, where 4 took
  // 112 s); beside work that holds every core, each run would otherwise queue behind five others
  // for a core, longer than the budgets the tests keep for it (`node scripts/bench-tests.js
  // --busy=4`: 2 workers, all tests pass in 271 s).
  maxWorkers: Math.max(cores, Math.floor((cores - (await coresHeld())) / WORKER_CORES)),
  collectCoverageFrom: ['src/**/*.ts', '!src/index.ts'],
  coverageReporters: ['text-summary', 'lcov'],
  // The longest unit test works about 5 s on a quiet machine (a demo run to its timeout, the
  // properties of the schedule; `node scripts/bench-tests.js` lists them): a test's limit is that
  // on a machine ten times slower, as the end-to-end tests' `SLOWER`. Those tests take theirs from
  // their runs instead (`runLimitMs` in __tests__/e2e/harness.ts).
  testTimeout: 5_000 * 10
}
