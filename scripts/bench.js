// @ts-check
// npm run bench: what the action costs its users. Counts the status checks of the real poll loop
// on a virtual clock, times the bundle's start against the local API simulator, weighs the bundle
// and its memory, prints the tables and writes them to docs/benchmarks.md.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { availableParallelism, cpus, release, tmpdir, totalmem, type } from 'node:os'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import * as prettier from 'prettier'
import { startSimulator } from '../simulator/server.js'
import { parseOutputFile, runnerStep } from './runner.js'

/**
 * @typedef {typeof import('./bench-poll.js')} PollBench
 * @typedef {import('./bench-poll.js').PollingSample} PollingSample
 * @typedef {import('../simulator/server.js').Simulator} Simulator
 * @typedef {import('../src/schedule.js').PollPace} Pace
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BUNDLE = join(ROOT, 'dist', 'index.js')
const REPORT = join(ROOT, 'docs', 'benchmarks.md')
const POLL_ENTRY = join(ROOT, 'scripts', 'bench-poll.ts')
const NCC = join(ROOT, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js')
const GNU_TIME = '/usr/bin/time'
const API_KEY = 'mint_simulator_key'

const JOB_MINUTES = [0.5, 1, 2, 5, 10, 30, 60]
/** Long enough that no simulated job meets it; the action's own default (30m) would. */
const SIM_TIMEOUT_MS = 2 * 3_600_000
/** A child still running after this long is stuck; the bench stops it and fails. */
const WATCHDOG_MS = 60_000
const WARM_UPS = 2
const RSS_RUNS = 3
/**
 * The run whose memory is measured. Its requests come about as often as in the first minute of a
 * real run with the defaults; squeezing hundreds of polls into seconds would measure how lazily
 * V8 collects garbage under a load no runner sees.
 */
const RSS_JOB = Object.freeze({ jobMs: 3000, pollInterval: '200ms', maxPollInterval: '1s' })

const GOAL = Object.freeze({
  /** Jobs at least this long are held to the polling goals. */
  fromJobMs: 2 * 60_000,
  fewerPolls: 3,
  noticeShare: 0.25,
  startupRatio: 6,
  bundleBytes: 1_000_000,
  rssBytes: 100_000_000
})

const USAGE = `Usage: npm run bench [-- [--samples N] [--runs N] [--rss time|preload]]

Measures what the action costs its users and writes docs/benchmarks.md.
Needs \`npm ci\` (for ncc) and \`npm run build\` (for dist/index.js).

  --samples N   simulated jobs per length and schedule (default 200)
  --runs N      timed start-ups of the bundle and of bare Node, interleaved (default 15)
  --rss METHOD  how peak memory is read: \`time\` (${GNU_TIME} -v, the default where present)
                or \`preload\` (process.resourceUsage().maxRSS from a preloaded module)
`

// ---------------------------------------------------------------------------------------------
// Numbers

/**
 * @param {number[]} values
 * @returns {number}
 */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? NaN)
    : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2
}

/**
 * @param {number[]} values
 * @returns {number}
 */
function mean(values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}

/**
 * @param {number} ms
 * @returns {string} `30 s`, `1 min`, `1.5 min`
 */
function jobLabel(ms) {
  return ms < 60_000 ? `${ms / 1000} s` : `${ms / 60_000} min`
}

/**
 * @param {number} ms
 * @returns {string} seconds with one decimal, `12.3 s`
 */
function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`
}

/**
 * @param {number} ms
 * @returns {string} seconds as short as they can be, `30 s`, `65.9 s`
 */
function secondsShort(ms) {
  return `${Number((ms / 1000).toFixed(1))} s`
}

/**
 * @param {number} ms
 * @returns {string} `45.2 ms`
 */
function millis(ms) {
  return `${ms.toFixed(1)} ms`
}

/**
 * @param {number} share
 * @returns {string} `24.6 %`
 */
function percent(share) {
  return `${(share * 100).toFixed(1)} %`
}

/**
 * @param {number} bytes
 * @returns {string} `675.7 KB` (1 KB = 1,000 bytes)
 */
function kilobytes(bytes) {
  return `${(bytes / 1000).toFixed(1)} KB`
}

/**
 * @param {number} bytes
 * @returns {string} `62.4 MB` (1 MB = 1,000,000 bytes)
 */
function megabytes(bytes) {
  return `${(bytes / 1_000_000).toFixed(1)} MB`
}

/**
 * @param {boolean} ok
 * @returns {string}
 */
function mark(ok) {
  return ok ? '✅' : '❌'
}

/**
 * @param {string[]} header
 * @param {string[][]} rows
 * @returns {string} a markdown table
 */
function table(header, rows) {
  const line = (/** @type {string[]} */ cells) => `| ${cells.join(' | ')} |`
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')
}

// ---------------------------------------------------------------------------------------------
// Polling economy

/**
 * Bundles scripts/bench-poll.ts, with the action's poll loop and schedule, into a temporary
 * directory and imports it. ncc handles the `.js` suffixes and TypeScript-only syntax of src/
 * that Node's own type stripping does not.
 *
 * @param {string} dir
 * @returns {Promise<PollBench>}
 */
async function loadPollBench(dir) {
  // Transpile only: type checking is `npm run typecheck`'s job, and the bench should not stop at
  // a type error elsewhere in the project.
  const build = spawnSync(
    process.execPath,
    [NCC, 'build', POLL_ENTRY, '-o', dir, '--quiet', '--no-cache', '--transpile-only'],
    { cwd: ROOT, encoding: 'utf8' }
  )
  if (build.status !== 0) {
    throw new Error(`ncc could not bundle scripts/bench-poll.ts:\n${build.stderr || build.stdout}`)
  }
  /** @type {PollBench} */
  const bench = await import(pathToFileURL(join(dir, 'index.js')).href)
  return bench
}

/**
 * @typedef {object} PollingStats
 * @property {PollingSample[]} samples
 * @property {number} meanPolls
 * @property {number} maxPolls
 * @property {number} meanNoticeMs
 * @property {number} worstNoticeMs
 * @property {number} worstNoticeShare largest notice delay as a share of its own job's length
 */

/**
 * @param {PollingSample[]} samples
 * @returns {PollingStats}
 */
function pollingStats(samples) {
  return {
    samples,
    meanPolls: mean(samples.map((s) => s.polls)),
    maxPolls: Math.max(...samples.map((s) => s.polls)),
    meanNoticeMs: mean(samples.map((s) => s.noticeMs)),
    worstNoticeMs: Math.max(...samples.map((s) => s.noticeMs)),
    worstNoticeShare: Math.max(...samples.map((s) => s.noticeMs / s.jobMs))
  }
}

/**
 * @param {PollingStats} stats
 * @returns {PollingSample} the sample whose end was noticed latest for its length
 */
function worstSample(stats) {
  return stats.samples.reduce((a, b) => (b.noticeMs / b.jobMs > a.noticeMs / a.jobMs ? b : a))
}

/**
 * @typedef {object} PollingRow
 * @property {number} jobMs
 * @property {PollingStats} ours
 * @property {PollingStats} fixed5
 * @property {PollingStats} fixed30
 * @property {number} ratio fixed 5 s polls ÷ ours, on the means
 * @property {number} leastRatio the same job by job, at its smallest
 * @property {boolean} held whether the goals apply to this job length
 * @property {boolean} fewerOk
 * @property {boolean} noticeOk
 */

/**
 * @param {PollBench} bench
 * @param {number} samples
 * @returns {Promise<PollingRow[]>}
 */
async function measurePolling(bench, samples) {
  const phaseWindowMs = bench.DEFAULT_PACE.maxMs
  /** @type {PollingRow[]} */
  const rows = []
  for (const [index, minutes] of JOB_MINUTES.entries()) {
    const jobMs = minutes * 60_000
    /**
     * @param {Pace} pace
     * @param {boolean} jitter
     */
    const simulate = async (pace, jitter) =>
      pollingStats(
        await bench.simulatePolling({
          jobMs,
          pace,
          jitter,
          samples,
          seed: 1000 + index,
          phaseWindowMs,
          timeoutMs: SIM_TIMEOUT_MS
        })
      )
    const ours = await simulate(bench.DEFAULT_PACE, true)
    const fixed5 = await simulate({ initialMs: 5_000, maxMs: 5_000 }, false)
    const fixed30 = await simulate({ initialMs: 30_000, maxMs: 30_000 }, false)
    const ratio = fixed5.meanPolls / ours.meanPolls
    const leastRatio = Math.min(
      ...ours.samples.map((s, i) => (fixed5.samples[i]?.polls ?? NaN) / s.polls)
    )
    rows.push({
      jobMs,
      ours,
      fixed5,
      fixed30,
      ratio,
      leastRatio,
      held: jobMs >= GOAL.fromJobMs,
      fewerOk: ratio >= GOAL.fewerPolls,
      noticeOk:
        ours.worstNoticeShare <= GOAL.noticeShare && ours.worstNoticeMs <= bench.DEFAULT_PACE.maxMs
    })
  }
  return rows
}

// ---------------------------------------------------------------------------------------------
// Running the bundle

/**
 * @typedef {object} ChildRun
 * @property {number | null} code
 * @property {NodeJS.Signals | null} signal
 * @property {number} exitMs from just before `spawn` to the child's exit
 * @property {string} output stdout and stderr, for when something went wrong
 */

/**
 * Spawns a child and waits for it, killing it if it hangs.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {{ env: NodeJS.ProcessEnv, cwd: string }} options
 * @param {(started: number) => void} [onSpawn] given the `performance.now()` taken before spawning
 * @returns {Promise<ChildRun>}
 */
function runChild(command, args, options, onSpawn) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    onSpawn?.(started)
    let output = ''
    child.stdout.on('data', (chunk) => (output += String(chunk)))
    child.stderr.on('data', (chunk) => (output += String(chunk)))
    const watchdog = setTimeout(() => child.kill('SIGKILL'), WATCHDOG_MS)
    child.on('error', (error) => {
      clearTimeout(watchdog)
      reject(error)
    })
    child.on('exit', (code, signal) => {
      const exitMs = performance.now() - started
      clearTimeout(watchdog)
      child.on('close', () => resolve({ code, signal, exitMs, output }))
    })
  })
}

/**
 * Listens to the simulator's per-request log for the next request, the action's create.
 */
function firstRequestWatch() {
  /** @type {((at: number) => void) | undefined} */
  let waiting
  return {
    /** The simulator's `log` option. */
    log: () => {
      const at = performance.now()
      waiting?.(at)
      waiting = undefined
    },
    /** @returns {Promise<number>} the `performance.now()` at which the next request is logged */
    next: () => new Promise((resolve) => (waiting = resolve))
  }
}

/**
 * @typedef {object} BundleRun
 * @property {number} firstRequestMs from just before `spawn` to the simulator logging the create
 * @property {number} exitMs
 * @property {number | undefined} maxRssBytes when a method was asked for
 */

/**
 * Runs dist/index.js once as a runner does, against the simulator, and checks that the job was
 * reported as completed: a run that failed early would measure the wrong thing.
 *
 * @param {Simulator} simulator
 * @param {ReturnType<typeof firstRequestWatch>} watch
 * @param {Record<string, string>} inputs
 * @param {'time' | 'preload' | undefined} rss
 * @returns {Promise<BundleRun>}
 */
async function runBundle(simulator, watch, inputs, rss) {
  const dir = mkdtempSync(join(tmpdir(), 'mintlify-agent-bench-'))
  try {
    const { env, outputFile } = runnerStep(
      {
        prompt: 'Document the new export endpoint',
        'project-id': 'proj_bench',
        'api-key': API_KEY,
        'base-url': simulator.url,
        timeout: '1m',
        ...inputs
      },
      dir
    )
    const rssFile = join(dir, 'maxrss')
    const [command, args] = rss ? nodeCommand(rss, rssFile, [BUNDLE]) : [process.execPath, [BUNDLE]]

    let started = NaN
    const arrived = watch.next()
    const run = await runChild(command, args, { env, cwd: dir }, (at) => (started = at))
    const outputs = Object.fromEntries(parseOutputFile(readFileSync(outputFile, 'utf8')))
    if (run.code !== 0 || outputs.status !== 'completed') {
      throw new Error(
        `dist/index.js did not finish the job (exit ${run.code ?? run.signal}, status ` +
          `${outputs.status ?? 'unset'}):\n${run.output}`
      )
    }
    const firstRequestMs = (await arrived) - started
    return { firstRequestMs, exitMs: run.exitMs, maxRssBytes: rss && readMaxRss(rss, rssFile) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Node with `args`, set up so that its peak RSS ends up in `file`: GNU time around the process,
 * or a preloaded module that writes `process.resourceUsage().maxRSS` as the process exits.
 *
 * @param {'time' | 'preload'} method
 * @param {string} file
 * @param {string[]} args
 * @returns {[string, string[]]} command and arguments
 */
function nodeCommand(method, file, args) {
  if (method === 'time') return [GNU_TIME, ['-v', '-o', file, process.execPath, ...args]]
  const preload = `${file}.mjs`
  writeFileSync(
    preload,
    "import { writeFileSync } from 'node:fs'\n" +
      `process.on('exit', () => writeFileSync(${JSON.stringify(file)}, ` +
      'String(process.resourceUsage().maxRSS)))\n'
  )
  return [process.execPath, ['--import', pathToFileURL(preload).href, ...args]]
}

/**
 * Peak RSS of `node -e ''`, the floor under any Node program, read the same way as the action's.
 *
 * @param {'time' | 'preload'} method
 * @returns {Promise<number>} bytes
 */
async function bareRss(method) {
  const dir = mkdtempSync(join(tmpdir(), 'mintlify-agent-bench-'))
  try {
    const file = join(dir, 'maxrss')
    const [command, args] = nodeCommand(method, file, ['-e', ''])
    const run = await runChild(command, args, { env: runnerStep({}, dir).env, cwd: dir })
    if (run.code !== 0) throw new Error(`node -e '' exited with ${run.code ?? run.signal}`)
    return readMaxRss(method, file)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * @param {'time' | 'preload'} method
 * @param {string} file
 * @returns {number} bytes
 */
function readMaxRss(method, file) {
  const text = readFileSync(file, 'utf8')
  const kilobytes =
    method === 'time'
      ? Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(text)?.[1])
      : Number(text.trim())
  if (!Number.isFinite(kilobytes) || kilobytes <= 0) {
    throw new Error(
      `could not read the peak RSS from ${method === 'time' ? GNU_TIME : 'the preload'}:\n${text}`
    )
  }
  return kilobytes * 1024
}

/**
 * @typedef {object} StartupStats
 * @property {number[]} bundle time to the first request, ms
 * @property {number[]} bare time to exit of `node -e ''`, ms
 * @property {number} ratio median bundle ÷ median bare
 */

/**
 * Interleaves the two kinds of start, alternating which goes first, so that a machine busy for a
 * moment slows both alike. Warm-ups fill the file cache and are not counted.
 *
 * @param {Simulator} simulator
 * @param {ReturnType<typeof firstRequestWatch>} watch
 * @param {number} runs
 * @returns {Promise<StartupStats>}
 */
async function measureStartup(simulator, watch, runs) {
  // The job has ended by the first check, so each run is start-up, one short wait and the report.
  simulator.setScenario({ jobDurationMs: 0 })
  const inputs = { 'poll-interval': '20ms', 'max-poll-interval': '20ms' }
  const bareDir = mkdtempSync(join(tmpdir(), 'mintlify-agent-bench-'))
  const { env } = runnerStep({}, bareDir)
  const bare = async () => {
    const run = await runChild(process.execPath, ['-e', ''], { env, cwd: bareDir })
    if (run.code !== 0) throw new Error(`node -e '' exited with ${run.code ?? run.signal}`)
    return run.exitMs
  }
  const bundle = async () => (await runBundle(simulator, watch, inputs, undefined)).firstRequestMs

  /** @type {StartupStats} */
  const stats = { bundle: [], bare: [], ratio: NaN }
  for (let i = 0; i < WARM_UPS; i++) {
    await bare()
    await bundle()
  }
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      stats.bare.push(await bare())
      stats.bundle.push(await bundle())
    } else {
      stats.bundle.push(await bundle())
      stats.bare.push(await bare())
    }
  }
  rmSync(bareDir, { recursive: true, force: true })
  stats.ratio = median(stats.bundle) / median(stats.bare)
  return stats
}

/**
 * @typedef {object} RssStats
 * @property {number[]} runs peak RSS of each whole run, bytes
 * @property {number} bare peak RSS of a bare Node start, bytes (the smallest of as many runs)
 * @property {number} polls status checks per run
 */

/**
 * Whole runs with a job that takes a few seconds and a quick schedule, so that the peak covers
 * start-up, several polls and the report, with bare Node starts between them for scale.
 *
 * @param {Simulator} simulator
 * @param {ReturnType<typeof firstRequestWatch>} watch
 * @param {'time' | 'preload'} method
 * @returns {Promise<RssStats>}
 */
async function measureRss(simulator, watch, method) {
  simulator.setScenario({ jobDurationMs: RSS_JOB.jobMs })
  const inputs = {
    'poll-interval': RSS_JOB.pollInterval,
    'max-poll-interval': RSS_JOB.maxPollInterval
  }
  /** @type {number[]} */
  const runs = []
  /** @type {number[]} */
  const bare = []
  const before = simulator.requests.length
  for (let i = 0; i < RSS_RUNS; i++) {
    const run = await runBundle(simulator, watch, inputs, method)
    runs.push(run.maxRssBytes ?? NaN)
    bare.push(await bareRss(method))
  }
  const polls = simulator.requests.slice(before).filter((r) => r.method === 'GET').length
  return { runs, bare: Math.min(...bare), polls: polls / RSS_RUNS }
}

// ---------------------------------------------------------------------------------------------
// The report

/**
 * @typedef {object} Results
 * @property {PollBench} bench
 * @property {PollingRow[]} polling
 * @property {number} samples
 * @property {StartupStats} startup
 * @property {RssStats} rss
 * @property {'time' | 'preload'} rssMethod
 * @property {number} bundleBytes
 * @property {string} bundleHash
 */

/**
 * @param {Results} results
 * @returns {string} the whole of docs/benchmarks.md
 */
function render(results) {
  const { bench, polling, startup, rss } = results
  const pace = bench.DEFAULT_PACE
  const held = polling.filter((row) => row.held)
  const leastFewer = held.reduce((a, b) => (b.ratio < a.ratio ? b : a))
  const mostFewer = held.reduce((a, b) => (b.ratio > a.ratio ? b : a))
  const worstShare = held.reduce((a, b) =>
    b.ours.worstNoticeShare > a.ours.worstNoticeShare ? b : a
  )
  const worstNotice = held.reduce((a, b) => (b.ours.worstNoticeMs > a.ours.worstNoticeMs ? b : a))
  const peakRss = Math.max(...rss.runs)
  const medianBundle = median(startup.bundle)
  const medianBare = median(startup.bare)

  const goals = {
    fewer: leastFewer.ratio >= GOAL.fewerPolls,
    share: worstShare.ours.worstNoticeShare <= GOAL.noticeShare,
    within: worstNotice.ours.worstNoticeMs <= pace.maxMs,
    startup: startup.ratio <= GOAL.startupRatio,
    size: results.bundleBytes < GOAL.bundleBytes,
    rss: peakRss < GOAL.rssBytes
  }

  const schedule = bench.waits(pace, 8)
  let reach = 0
  let ramp = 0
  for (const wait of schedule) {
    if (wait >= pace.maxMs) break
    reach += wait
    ramp += 1
  }
  const waitList = schedule.slice(0, ramp).map(secondsShort).join(', ')

  const summary = table(
    ['Goal', 'Target', 'Measured', ''],
    [
      [
        'Fewer polls than fixed 5 s (jobs ≥ 2 min)',
        `≥ ${GOAL.fewerPolls}×`,
        `${leastFewer.ratio.toFixed(2)}× at ${jobLabel(leastFewer.jobMs)} to ` +
          `${mostFewer.ratio.toFixed(2)}× at ${jobLabel(mostFewer.jobMs)}`,
        mark(goals.fewer)
      ],
      [
        'End noticed within a share of the job (jobs ≥ 2 min, worst case)',
        `≤ ${GOAL.noticeShare * 100} %`,
        `${percent(worstShare.ours.worstNoticeShare)} at ${jobLabel(worstShare.jobMs)}`,
        mark(goals.share)
      ],
      [
        'End noticed within max-poll-interval (worst case)',
        `≤ ${secondsShort(pace.maxMs)}`,
        `${seconds(worstNotice.ours.worstNoticeMs)} at ${jobLabel(worstNotice.jobMs)}`,
        mark(goals.within)
      ],
      [
        'Start-up: first request, against a bare Node start',
        `≤ ${GOAL.startupRatio}×`,
        `${startup.ratio.toFixed(2)}× (${millis(medianBundle)} vs ${millis(medianBare)}, medians)`,
        mark(goals.startup)
      ],
      [
        'Size of dist/index.js',
        `< ${GOAL.bundleBytes / 1_000_000} MB`,
        kilobytes(results.bundleBytes),
        mark(goals.size)
      ],
      [
        'Peak memory (RSS) of a whole run',
        `< ${GOAL.rssBytes / 1_000_000} MB`,
        megabytes(peakRss),
        mark(goals.rss)
      ]
    ]
  )

  const pollsTable = table(
    [
      'Job',
      'Ours: mean (most)',
      'Fixed 5 s: mean (most)',
      'Fixed 30 s: mean (most)',
      'Fixed 5 s ÷ ours: mean (least)',
      `Goal ≥ ${GOAL.fewerPolls}×`
    ],
    polling.map((row) => [
      jobLabel(row.jobMs),
      `${row.ours.meanPolls.toFixed(1)} (${row.ours.maxPolls})`,
      `${row.fixed5.meanPolls.toFixed(1)} (${row.fixed5.maxPolls})`,
      `${row.fixed30.meanPolls.toFixed(1)} (${row.fixed30.maxPolls})`,
      `${row.ratio.toFixed(2)}× (${row.leastRatio.toFixed(2)}×)`,
      row.held ? mark(row.fewerOk) : '—'
    ])
  )

  const noticeTable = table(
    [
      'Job',
      'Ours: mean / worst',
      'Ours: worst share of the job',
      'Fixed 5 s: mean / worst',
      'Fixed 30 s: mean / worst',
      `Goal ≤ ${GOAL.noticeShare * 100} % and ≤ ${secondsShort(pace.maxMs)}`
    ],
    polling.map((row) => [
      jobLabel(row.jobMs),
      `${seconds(row.ours.meanNoticeMs)} / ${seconds(row.ours.worstNoticeMs)}`,
      percent(row.ours.worstNoticeShare),
      `${seconds(row.fixed5.meanNoticeMs)} / ${seconds(row.fixed5.worstNoticeMs)}`,
      `${seconds(row.fixed30.meanNoticeMs)} / ${seconds(row.fixed30.worstNoticeMs)}`,
      row.held ? mark(row.noticeOk) : '—'
    ])
  )

  const startupTable = table(
    ['Start', 'Min', 'Median', 'Max'],
    [
      [
        'dist/index.js: spawn → first request (the create)',
        millis(Math.min(...startup.bundle)),
        millis(medianBundle),
        millis(Math.max(...startup.bundle))
      ],
      [
        "bare `node -e ''`: spawn → exit",
        millis(Math.min(...startup.bare)),
        millis(medianBare),
        millis(Math.max(...startup.bare))
      ],
      [
        'Ratio',
        `${(Math.min(...startup.bundle) / Math.min(...startup.bare)).toFixed(2)}×`,
        `${startup.ratio.toFixed(2)}×`,
        ''
      ]
    ]
  )

  const rssMethod =
    results.rssMethod === 'time'
      ? `\`${GNU_TIME} -v\` around the Node process (\`Maximum resident set size\`)`
      : '`process.resourceUsage().maxRSS`, written at exit by a module preloaded with `node --import`'
  const footprintTable = table(
    ['What', 'Measured', 'Goal'],
    [
      [
        'dist/index.js',
        `${results.bundleBytes.toLocaleString('en-US')} bytes (${kilobytes(results.bundleBytes)})`,
        `< ${GOAL.bundleBytes / 1_000_000} MB ${mark(goals.size)}`
      ],
      [
        `Peak RSS, whole run (${RSS_RUNS} runs)`,
        `${megabytes(peakRss)} at most; ${rss.runs.map(megabytes).join(', ')}`,
        `< ${GOAL.rssBytes / 1_000_000} MB ${mark(goals.rss)}`
      ],
      ["Peak RSS, bare `node -e ''` (for scale)", megabytes(rss.bare), '']
    ]
  )

  /** @type {string[]} */
  const misses = []
  if (!goals.fewer) {
    misses.push(
      `- **Fewer polls**: ${leastFewer.ratio.toFixed(2)}× for a ${jobLabel(leastFewer.jobMs)} job, ` +
        `${percent(1 - leastFewer.ratio / GOAL.fewerPolls)} short of ${GOAL.fewerPolls}×. The waits ` +
        `grow ×${bench.POLL_GROWTH} from ${seconds(pace.initialMs)} and reach ` +
        `max-poll-interval only after ${seconds(reach)} (${ramp} waits), so a short job spends ` +
        'most of its polls on the ramp. A larger growth factor or a longer first wait would close it.'
    )
  }
  if (!goals.share) {
    misses.push(
      `- **Share of the job**: the end of a job of ${seconds(worstSample(worstShare.ours).jobMs)} ` +
        `was noticed ${percent(worstShare.ours.worstNoticeShare)} of its length later, ` +
        `${((worstShare.ours.worstNoticeShare - GOAL.noticeShare) * 100).toFixed(1)} points over. ` +
        `Once the waits reach max-poll-interval (${secondsShort(pace.maxMs)}) an end just after a ` +
        `poll waits a whole interval, more than ${GOAL.noticeShare * 100} % of a job that short. ` +
        'Capping each wait at that share of the time the job has already run would guarantee ' +
        'the bound for every length.'
    )
  }
  if (!goals.within) {
    misses.push(
      `- **Within max-poll-interval**: ${seconds(worstNotice.ours.worstNoticeMs)} for a ` +
        `${jobLabel(worstNotice.jobMs)} job, ${seconds(worstNotice.ours.worstNoticeMs - pace.maxMs)} ` +
        'over. The jitter only shortens waits, so a wait longer than max-poll-interval points at ' +
        'the schedule itself (`pollDelay` in src/retry.ts).'
    )
  }
  if (!goals.startup) {
    misses.push(
      `- **Start-up**: ${startup.ratio.toFixed(2)}× a bare Node start, ` +
        `${(startup.ratio - GOAL.startupRatio).toFixed(2)}× over. Before its first request Node ` +
        `must read and compile all ${kilobytes(results.bundleBytes)} of dist/index.js. A smaller ` +
        'bundle, or loading later what the first request does not need (the report), would ' +
        'close it.'
    )
  }
  if (!goals.size) {
    misses.push(
      `- **Size**: ${kilobytes(results.bundleBytes)}, ` +
        `${kilobytes(results.bundleBytes - GOAL.bundleBytes)} over. The bundle carries every ` +
        'dependency; `ncc build --stats-out` shows which weigh most, and dropping or replacing ' +
        'the heaviest would close it.'
    )
  }
  if (!goals.rss) {
    misses.push(
      `- **Memory**: ${megabytes(peakRss)}, ${megabytes(peakRss - GOAL.rssBytes)} over. Node ` +
        `itself takes ${megabytes(rss.bare)}; the rest is the compiled bundle, its HTTP stack and ` +
        'the heap V8 keeps between collections. A smaller bundle would lower it.'
    )
  }

  const machine = cpus()[0]?.model ?? 'unknown CPU'
  let commit = 'unknown'
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8'
    }).trim()
  } catch {
    // Not a git checkout; the report still stands.
  }
  const shortJobs = polling
    .filter((row) => !row.held)
    .map(
      (row) =>
        `${seconds(row.ours.worstNoticeMs)} (${percent(row.ours.worstNoticeShare)} of the job) ` +
        `for ${jobLabel(row.jobMs)} jobs`
    )
    .join(' and ')
  const [shortest, hour] = [polling[0], polling[polling.length - 1]]
  if (!shortest || !hour) throw new Error('no polling results to report')

  return `# Benchmarks

What the action costs the people who run it: how often it asks the API, how late it notices that
the agent's job has ended, how long it takes to start, and how large and hungry it is.

Generated by \`npm run bench\` (scripts/bench.js) on ${new Date().toISOString().slice(0, 10)}; re-run
it to refresh this page rather than editing it.

## Summary

${summary}

${misses.length === 0 ? 'Every goal is met in this run.' : `## Goals missed\n\n${misses.join('\n')}`}

## Polling economy

With the defaults (\`poll-interval: 5s\`, \`max-poll-interval: 30s\`) the action waits
${waitList}, and ${secondsShort(pace.maxMs)} from then on: each wait is ×${bench.POLL_GROWTH} the one
before, and each is shortened by up to ${percent(bench.POLL_JITTER)} at random so that runs started
together drift apart. It reaches the longest wait ${seconds(reach)} after the job was created. The
tables compare this with polling every 5 s and every 30 s, ${results.samples} simulated jobs per
row. A job of row *D* lasts between *D* and *D* + ${secondsShort(pace.maxMs)}, so its end falls at
every point of a polling cycle.

### Polls per job

Status checks after the create, the one that sees the end included.

${pollsTable}

### Time to notice the end

From the moment the job ends to the poll that sees it.

${noticeTable}

Jobs shorter than ${jobLabel(GOAL.fromJobMs)} are not held to the goals: a job that ends just
after a poll waits for the next, already longer, wait, so the worst cases are ${shortJobs}.

Polling every 5 s notices the end within 5 s, at ${hour.ratio.toFixed(1)}× the requests for an
hour-long job. Polling every 30 s makes ${percent(1 - hour.fixed30.meanPolls / hour.ours.meanPolls)}
fewer requests than the defaults on an hour-long job, but notices the end of a
${jobLabel(shortest.jobMs)} job ${seconds(shortest.fixed30.meanNoticeMs)} late on average, where
the defaults take ${seconds(shortest.ours.meanNoticeMs)}.

## Start-up

${startupTable}

${startup.bundle.length} runs of each after ${WARM_UPS} warm-ups, interleaved.

## Footprint

${footprintTable}

Peak RSS read with ${rssMethod}. Each run waits for a job of ${secondsShort(RSS_JOB.jobMs)} with
\`poll-interval: ${RSS_JOB.pollInterval}\` and \`max-poll-interval: ${RSS_JOB.maxPollInterval}\`
(${rss.polls.toFixed(0)} polls a run), so it covers start-up, polling and the report, with requests
about as close together as in the first minute of a real run. A bare Node start peaks at
${megabytes(rss.bare)}.

## How to read / how measured

- **Machine**: ${availableParallelism()} CPUs (\`nproc\`), ${machine}, ${megabytes(totalmem())} memory,
  ${type()} ${release()}. **Node** ${process.version}. **Commit** ${commit}; dist/index.js
  sha256 \`${results.bundleHash.slice(0, 12)}\`.
- **Polling** runs the action's own wait loop (\`waitForJob\` in src/poll.ts, paced by
  \`pollDelay\` in src/retry.ts) on a virtual clock: sleeping moves the clock forward at once and
  requests take no time, so on a real runner every poll comes later by the request's latency.
  Fixed 5 s and fixed 30 s go through the same code with \`poll-interval\` equal to
  \`max-poll-interval\` and no jitter, as a plain fixed-interval poller would. Job lengths and jitter
  come from seeded generators, so the polling tables are the same on every run; the same job
  lengths are used for all three schedules, and *least* compares them job by job. \`timeout\` is
  raised to 2 h so that it never ends a wait; note that the default \`timeout: 30m\` would end the
  wait for the 30 and 60 minute jobs.
- **Start-up**: each run spawns \`process.execPath\` and reads \`performance.now()\` just before
  \`spawn\`. For dist/index.js the clock stops when the local API simulator (in the bench's own
  process, on 127.0.0.1) logs the action's first request, the create; for bare Node, when
  \`node -e ''\` exits. Both are mostly process start, so the ratio says how much loading the
  bundle and reading the inputs add. Runs go to the simulator as a runner would: \`INPUT_*\`
  variables, \`GITHUB_OUTPUT\` and \`GITHUB_STEP_SUMMARY\` files; every run must report the job
  completed.
- **Footprint**: the size of dist/index.js as built by \`npm run build\` (1 KB = 1,000 bytes,
  1 MB = 1,000,000 bytes); peak RSS as above, the largest of ${RSS_RUNS} runs.
- **Re-run**: \`npm ci\`, \`npm run build\`, then \`npm run bench\` (options: \`-- --help\`).
  Timings move with the machine and its load; the polling tables do not.
`
}

// ---------------------------------------------------------------------------------------------

/**
 * @param {string[]} argv
 * @returns {Promise<number>} the exit code to leave with
 */
async function main(argv) {
  /** @type {{ samples: number, runs: number, rss: 'time' | 'preload' }} */
  let options
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        samples: { type: 'string', default: '200' },
        runs: { type: 'string', default: '15' },
        rss: { type: 'string', default: existsSync(GNU_TIME) ? 'time' : 'preload' },
        help: { type: 'boolean', default: false }
      }
    })
    if (values.help) {
      process.stdout.write(USAGE)
      return 0
    }
    const samples = Number(values.samples)
    const runs = Number(values.runs)
    if (!Number.isInteger(samples) || samples < 1)
      throw new Error('--samples must be a whole number ≥ 1')
    if (!Number.isInteger(runs) || runs < 3) throw new Error('--runs must be a whole number ≥ 3')
    if (values.rss !== 'time' && values.rss !== 'preload')
      throw new Error('--rss must be time or preload')
    options = { samples, runs, rss: values.rss }
  } catch (error) {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)} (see --help)`)
    return 2
  }
  if (!existsSync(NCC)) {
    console.error(
      'bench: node_modules/@vercel/ncc is missing. Run `npm ci`, then `npm run bench` again.'
    )
    return 1
  }
  if (!existsSync(BUNDLE)) {
    console.error(
      'bench: dist/index.js is missing. Run `npm run build`, then `npm run bench` again.'
    )
    return 1
  }
  if (Number(process.versions.node.split('.')[0]) < 24) {
    console.error(
      `bench: this is Node ${process.version}; the action runs on Node 24. Use \`npm run bench\`, ` +
        "which puts the project's Node 24 first on the PATH."
    )
  }

  const progress = (/** @type {string} */ line) => console.error(`bench: ${line}`)
  const dir = mkdtempSync(join(tmpdir(), 'mintlify-agent-bench-poll-'))
  const watch = firstRequestWatch()
  /** @type {Simulator | undefined} */
  let simulator
  try {
    progress('bundling the poll loop (scripts/bench-poll.ts)…')
    const bench = await loadPollBench(dir)
    progress(`simulating ${options.samples} jobs per length and schedule…`)
    const polling = await measurePolling(bench, options.samples)

    simulator = await startSimulator({
      apiKey: API_KEY,
      log: watch.log,
      scenario: { rateLimit: { limit: 1_000_000 } }
    })
    progress(`timing ${options.runs} start-ups of dist/index.js and of bare Node…`)
    const startup = await measureStartup(simulator, watch, options.runs)
    progress(`measuring peak memory of ${RSS_RUNS} whole runs (${options.rss})…`)
    const rss = await measureRss(simulator, watch, options.rss)

    const bundle = readFileSync(BUNDLE)
    const report = render({
      bench,
      polling,
      samples: options.samples,
      startup,
      rss,
      rssMethod: options.rss,
      bundleBytes: statSync(BUNDLE).size,
      bundleHash: createHash('sha256').update(bundle).digest('hex')
    })
    mkdirSync(dirname(REPORT), { recursive: true })
    // Formatted as `npm run format:check` expects, so a fresh report never fails CI; prose is
    // wrapped here because the numbers spliced into it make the lines uneven, and a no-break space
    // keeps each number with its unit.
    const config = await prettier.resolveConfig(REPORT)
    const unbroken = report.replace(/(\d) (?=(?:ms|s|min|h|MB|KB)\b|%)/g, '$1\u00a0')
    const formatted = await prettier.format(unbroken, {
      ...config,
      filepath: REPORT,
      proseWrap: 'always'
    })
    writeFileSync(REPORT, formatted)
    process.stdout.write(formatted)
    progress('wrote docs/benchmarks.md')
    return 0
  } finally {
    await simulator?.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

process.exitCode = await main(process.argv.slice(2)).catch((error) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`)
  return 1
})
