// @ts-check
// How long the test suite takes, and where: runs `npm test` (or the files given) once and prints
// the wall time, the CPU time of every process it started, and each test file's time, longest
// first, with its tests over a second, then how many tests passed and failed. A measure to read,
// never a test: no test asserts on it.
//
//   node scripts/bench-tests.js [--busy=N] [jest arguments…]
//   e.g. `node scripts/bench-tests.js __tests__/e2e`, `node scripts/bench-tests.js --busy=4`
//
// `--busy=N` runs the suite on a machine others are using: N processes each keep a core busy
// (a loop that never waits) from before the suite starts until it ends, and are stopped however
// this script ends. The suite must pass as it does on a quiet machine, only slower.
//
// The CPU time is read from /proc (Linux); elsewhere only wall times are printed. It counts the
// suite's processes only, not the busy ones.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { constants, loadavg, tmpdir } from 'node:os'
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

/**
 * Starts `count` processes that each keep a core busy until `stop` is called, which also runs
 * when this process ends, on an error or a signal.
 * @param {number} count
 */
function busyLoops(count) {
  const loops = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {} // bench-tests --busy'], { stdio: 'ignore' })
  )
  const stop = () => {
    for (const loop of loops) if (loop.exitCode === null && loop.signalCode === null) loop.kill()
  }
  process.on('exit', stop)
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.on(signal, () => {
      stop()
      process.exit(128 + constants.signals[signal])
    })
  }
  return { stop }
}

const args = process.argv.slice(2)
const busyArg = args.find((arg) => arg.startsWith('--busy='))
const busy = busyArg === undefined ? 0 : Number(busyArg.slice('--busy='.length))
if (!Number.isInteger(busy) || busy < 0) {
  console.error(`--busy takes a whole number of busy processes, not ${busyArg}`)
  process.exit(2)
}
const jestArgs = args.filter((arg) => arg !== busyArg)

const dir = mkdtempSync(join(tmpdir(), 'bench-tests-'))
const report = join(dir, 'results.json')
const loops = busyLoops(busy)
const loadBefore = loadavg()[0] ?? 0
const started = performance.now()
const jest = spawn('npm', ['test', '--', '--json', `--outputFile=${report}`, ...jestArgs], {
  cwd: ROOT,
  stdio: ['ignore', 'ignore', 'inherit']
})
/** @type {number | null} */
const status = await new Promise((resolve) => jest.on('close', (code) => resolve(code)))
const wallS = (performance.now() - started) / 1000
const loadAfter = loadavg()[0] ?? 0
// Before the busy processes end: only the processes waited for count, and they are still running.
const cpuS = childrenCpu()
loops.stop()

if (!existsSync(report)) {
  console.error(`npm test wrote no results (exit ${status})`)
  process.exit(1)
}
const results =
  /** @type {{ success: boolean, numPassedTests: number, numFailedTests: number, testResults: FileResult[] }} */ (
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
console.log(`tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed`)
console.log(
  `wall ${wallS.toFixed(0)} s` +
    (cpuS === undefined ? '' : `, CPU ${cpuS.toFixed(0)} s (user + system)`) +
    (busy > 0 ? `, beside ${busy} busy process(es)` : '') +
    `; load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end`
)
process.exit(status ?? 1)
