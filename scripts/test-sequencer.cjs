// @ts-check
// The order Jest starts test files in. A run lasts as long as its busiest worker, so a long file
// that starts last keeps the other workers idle at the end. Jest's own order (files that failed
// last time first, then the slowest of the last run, then the largest) stays within each group:
//
// - Files of a project with a globalSetup (the end-to-end tests, which wait for the bundle their
//   setup builds in the background) come after the others, so the unit tests use the build time.
// - Before Jest has timed a file (a first run, CI), the files named below come first in their
//   group: their size says nothing of the real time they wait.
//
// CommonJS, like test-counts.cjs: Jest's sequencer package is typed as a CommonJS module.
/* eslint-disable @typescript-eslint/no-require-imports */
const path = require('node:path')
const Sequencer = require('@jest/test-sequencer').default

/**
 * Files whose cases wait longest, even on their warped clocks: GitHub's retries and budgets, which
 * keep real time enough to be answered (a clock twice as fast), over many runs; and the last look
 * before a 30 s timeout.
 */
const SLOW = [
  '__tests__/e2e/no-duplicate.test.ts',
  '__tests__/e2e/branch.test.ts',
  '__tests__/e2e/trust.test.ts',
  '__tests__/e2e/create-once.test.ts'
]

/** @typedef {Parameters<InstanceType<typeof Sequencer>['sort']>[0][number]} Test */

module.exports = class SlowFirst extends Sequencer {
  /**
   * @override
   * @param {Test[]} tests
   */
  async sort(tests) {
    // Jest's sort also sets each file's `duration` from the last run, when it has one.
    const ordered = await super.sort(tests)
    /** @param {Test} test */
    const early = (test) =>
      test.duration === undefined &&
      SLOW.includes(path.relative(test.context.config.rootDir, test.path))
    /** @param {Test[]} group */
    const slowFirst = (group) => [...group.filter(early), ...group.filter((t) => !early(t))]
    /** @param {Test} test */
    const waits = (test) => Boolean(test.context.config.globalSetup)
    return [
      ...slowFirst(ordered.filter((t) => !waits(t))),
      ...slowFirst(ordered.filter((t) => waits(t)))
    ]
  }
}
