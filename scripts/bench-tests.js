// @ts-check
// How long the test suite takes, and where: runs `npm test` (or the files given) once and prints
// the wall time, the CPU time of every process it started, and each test file's time, longest
// first, with its tests over a second. A measure to read, never a test: no test asserts on it.
//
//   node scripts/bench-tests.js [jest arguments…]   e.g. `node scripts/bench-tests.js __tests__/e2e`
//
// The CPU time is read from /proc (Linux); elsewhere only wall times are printed.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/**
 * @typedef {object} FileResult
 * @property {string} name
 * @property {number} startTime
 * @property {number} endTime
 * @property {{ title: string, duration?: number | null }[]} assertionResults
 */

/** @returns {number | undefined} user + system seconds of the children waited for so far */
function childrenCpu() {
  if (!existsSync('/proc/self/stat')) return undefined
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? []
  // After the command: state is field 3; cutime and cstime are fields 16 and 17, in clock ticks.
  const ticks = Number(fields[13]) + Number(fields[14])
  return Number.isFinite(ticks) ? ticks / 100 : undefined
}

const dir = mkdtempSync(join(tmpdir(), 'bench-tests-'))
const report = join(dir, 'results.json')
const started = performance.now()
const jest = spawnSync(
  'npm',
  ['test', '--', '--json', `--outputFile=${report}`, ...process.argv.slice(2)],
  { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] }
)
const wallS = (performance.now() - started) / 1000
const cpuS = childrenCpu()

if (!existsSync(report)) {
  console.error(`npm test wrote no results (exit ${jest.status})`)
  process.exit(1)
}
const results = /** @type {{ success: boolean, testResults: FileResult[] }} */ (
  JSON.parse(readFileSync(report, 'utf8'))
)
rmSync(dir, { recursive: true, force: true })

const files = results.testResults
  .map((file) => ({ file, seconds: (file.endTime - file.startTime) / 1000 }))
  .sort((a, b) => b.seconds - a.seconds)
for (const { file, seconds } of files) {
  console.log(`${seconds.toFixed(1).padStart(6)} s  ${file.name.slice(ROOT.length)}`)
  for (const test of file.assertionResults) {
    if ((test.duration ?? 0) > 1000) {
      console.log(`${((test.duration ?? 0) / 1000).toFixed(1).padStart(14)} s  ${test.title}`)
    }
  }
}
const sum = files.reduce((total, { seconds }) => total + seconds, 0)
console.log(
  `\n${files.length} files, ${sum.toFixed(0)} s in all, ${results.success ? 'passed' : 'FAILED'}`
)
console.log(
  `wall ${wallS.toFixed(0)} s` +
    (cpuS === undefined ? '' : `, CPU ${cpuS.toFixed(0)} s (user + system)`)
)
process.exit(jest.status ?? 1)
