// @ts-check
// A Jest reporter that closes every test run with one plain line, `Tests: N passed, N failed`
// (and `, N skipped`), which CI systems and people read alike.
module.exports = class TestCounts {
  /**
   * @param {unknown} _contexts
   * @param {import('@jest/reporters').AggregatedResult} results
   */
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests
    const broken = results.numRuntimeErrorTestSuites
    if (broken > 0) console.log(`${broken} test file(s) failed to run`)
    const line = `Tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed`
    console.log(skipped > 0 ? `${line}, ${skipped} skipped` : line)
  }
}
