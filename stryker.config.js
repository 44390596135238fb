// @ts-check
import jestConfig from './jest.config.js'

/**
 * Mutation testing of the decision (`npm run mutate`, see CONTRIBUTING.md): Stryker changes one
 * expression of the decision (`src/run/decide/`, each kind's `decide.ts`) or the command parser at a time and runs the decision's unit tests;
 * a change no test notices is a rule no test holds. Too slow for CI on two cores, so developers
 * run it before a change to a decision lands.
 */

const unit = jestConfig.projects?.find(
  (project) => typeof project === 'object' && project.displayName === 'unit'
)
if (typeof unit !== 'object') throw new Error('jest.config.js has no "unit" project to narrow.')

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: ['src/run/decide/**/*.ts', 'src/kinds/*/decide.ts', 'src/kinds/command/parse.ts'],
  testRunner: 'jest',
  // The project's Jest runs its TypeScript as ES modules (Node's type stripping, under vm modules).
  testRunnerNodeArgs: ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning'],
  jest: {
    projectType: 'custom',
    // Every decision test runs for every mutant it covers: Jest's related-test search does not
    // follow this project's `.js` → `.ts` imports through the kinds' registry, and would leave
    // out the tests that reach a decision through it.
    enableFindRelatedTests: false,
    // One flat project: the unit settings, only the decision's tests. Stryker's own test
    // environment (for per-test coverage) replaces `testEnvironment` only at the top level.
    config: {
      ...unit,
      displayName: undefined,
      projects: undefined,
      testSequencer: undefined,
      testMatch: ['**/__tests__/decide*.test.ts', '**/__tests__/command-parse.test.ts'],
      maxWorkers: 1
    }
  },
  coverageAnalysis: 'perTest',
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  // Every machine this runs on is shared: two processes at most.
  concurrency: 2,
  ignorePatterns: ['dist', 'coverage', 'reports', 'docs', '.stryker-tmp'],
  reporters: ['clear-text', 'progress', 'html'],
  // 192 of the 193 mutants that type-check are killed (99.5%); the other behaves the same as the
  // code (CONTRIBUTING.md says why). A new survivor drops the score below `break`.
  thresholds: { high: 100, low: 99, break: 99 }
}
