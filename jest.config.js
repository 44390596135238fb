import { availableParallelism } from 'node:os'

/** Settings every test file shares. */
const common = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1'
  },
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: ['TS151001'] } }
    ]
  },
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
  // The end-to-end tests mostly wait, on the simulator's clock and on the action starting: with
  // one and a half workers per core (3 on 2 cores) the waits overlap and the cores stay busy.
  maxWorkers: Math.ceil(availableParallelism() * 1.5),
  collectCoverageFrom: ['src/**/*.ts', '!src/index.ts'],
  coverageReporters: ['text-summary', 'lcov'],
  testTimeout: 20000
}
