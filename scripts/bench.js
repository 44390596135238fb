// @ts-check
// npm run bench: what running the action costs on this machine. Times the start of
// `node dist/index.js` (outside a workflow, and on a push whose change it reads from GitHub first)
// against a bare Node process sending the same first Mintlify request to the local API simulator,
// counts the GitHub requests and the prompt characters the change context costs per kind of event,
// reads the peak memory of whole runs and weighs the bundle, then writes docs/benchmarks.md. How
// often the action polls follows from its schedule alone and is checked in
// __tests__/schedule.test.ts, not measured here.
import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, release, tmpdir, totalmem, type } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import * as prettier from 'prettier'
import { startSimulator } from '../simulator/server.js'
import { parseOutputFile, runnerEvent, runnerStep } from './runner.js'

/**
 * @typedef {import('../simulator/server.js').Simulator} Simulator
 * @typedef {import('../simulator/server.js').RecordedRequest} RecordedRequest
 * @typedef {import('../simulator/scenario.js').ScenarioInput} ScenarioInput
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BUNDLE = join(ROOT, 'dist', 'index.js')
const REPORT = join(ROOT, 'docs', 'benchmarks.md')
const EVENTS = join(ROOT, '__fixtures__', 'events')
const API_KEY = 'mint_simulator_key'
/** The `github-token` input of runs on an event; the simulator's GitHub accepts only it. */
const GITHUB_TOKEN = 'ghs_bench_token_for_the_simulator'
const PROMPT = 'Document the new export endpoint'

const GOAL = Object.freeze({
  /** Median time to the first Mintlify request, as a multiple of bare Node's. */
  startupRatio: 2.5,
  /** GitHub requests of a run on a push or a pull request touching up to `githubFiles` files. */
  githubRequests: 2,
  githubFiles: 100,
  /** GitHub requests of the pull request comment: find, create or update, update at the end. */
  commentRequests: 3,
  bundleBytes: 1_200_000
})

/**
 * The events whose change context is measured: a name and a payload in __fixtures__/events/.
 *
 * @typedef {{ name: string, payload: string }} BenchEvent
 */
/** @type {Record<string, BenchEvent>} */
const EVENT = {
  push: { name: 'push', payload: 'push.json' },
  pullRequest: { name: 'pull_request', payload: 'pull_request-opened.json' }
}
/**
 * How many files the measured changes touch, beside the simulator's built-in change: the goal's
 * limit, and more for scale.
 */
const CHANGE_SIZES = [GOAL.githubFiles, 300]

/** A child still running after this long is stuck; the bench stops it and fails. */
const WATCHDOG_MS = 60_000
const WARM_UPS = 2
const RSS_RUNS = 3
/**
 * The runs whose memory is measured wait for a short job with requests about as close together
 * as in the first minute of a real run, so the peak covers start-up, polling and the report.
 */
const RSS_JOB = Object.freeze({ jobMs: 3000, 'poll-interval': '200ms', 'max-poll-interval': '1s' })

const USAGE = `Usage: npm run bench [-- --runs N]

Measures what running the action costs and writes docs/benchmarks.md.
Needs dist/index.js (\`npm run build\`).

  --runs N   timed starts of the bundle and of bare Node, interleaved (default 15)
`

// ---------------------------------------------------------------------------------------------
// What a measurement is handed, and what it gives back

/**
 * One line of the report's table.
 *
 * @typedef {object} Row
 * @property {string} what
 * @property {string} measured
 * @property {string} [goal] left out for figures given for scale
 * @property {boolean} [met]
 */

/**
 * @typedef {object} RunOptions
 * @property {Record<string, string>} [inputs] over the defaults of a quick run
 * @property {ScenarioInput} [scenario] set on the simulator before the run
 * @property {BenchEvent} [event] run as a runner does on this event, with GitHub played by the
 *   simulator and a `github-token` input; without, as outside a workflow
 * @property {boolean} [rss] also read the peak memory
 */

/**
 * One process started against the simulator as a runner starts a step.
 *
 * @typedef {object} Run
 * @property {RecordedRequest[]} requests what the simulator received while it ran, in order
 * @property {number} firstRequestMs from just before `spawn` to the simulator logging the first
 *   Mintlify request (GitHub's, under `/repos/`, come before it and are not counted)
 * @property {number | undefined} maxRssBytes when asked for
 * @property {Record<string, string>} outputs what it wrote to `GITHUB_OUTPUT`
 * @property {string} summary what it wrote to `GITHUB_STEP_SUMMARY`
 */

/**
 * @typedef {object} Bench
 * @property {number} runs how many timed runs a measurement of time makes
 * @property {(options?: RunOptions) => Promise<Run>} runAction one run of dist/index.js, which
 *   must report the job completed: a run that failed early would measure the wrong thing
 * @property {(request: RecordedRequest, options?: { rss?: boolean }) => Promise<Run>} runBare
 *   a bare `node -e` that sends `request` (a Mintlify one) with fetch and exits
 * @property {(stage: string) => void} progress
 */

/** @typedef {(bench: Bench) => Promise<Row[]>} Measurement */

// ---------------------------------------------------------------------------------------------
// The measurements

/** Inputs that leave the pull request comment out, to time or count the change context alone. */
const CONTEXT_ONLY = { comment: 'off', 'reuse-job': 'false' }

/**
 * The starts timed: outside a workflow; on a push whose change the action reads from GitHub and
 * adds to the prompt before its first Mintlify request (the goal is set for this); and on a push
 * with the defaults, which also look up the pushed commit's pull request and its comment first.
 *
 * @type {{ label: string, event?: BenchEvent, inputs?: Record<string, string>, goal: boolean }[]}
 */
const STARTS = [
  { label: 'outside a workflow', goal: true },
  { label: 'push event with context', event: EVENT.push, inputs: CONTEXT_ONLY, goal: true },
  {
    label: 'push event with context and the pull request comment (the defaults)',
    event: EVENT.push,
    goal: false
  }
]

/**
 * Start-up: how much later than bare Node the bundle sends its first Mintlify request. Both are
 * mostly process start; the difference is loading the bundle, reading the inputs and, on an event,
 * reading the change from GitHub. Every kind of start (each of `STARTS`, and bare Node sending its
 * first request) takes its turn in each round, in an order that rotates, so that a machine busy
 * for a moment slows all alike.
 *
 * @type {Measurement}
 */
async function startup(bench) {
  const labels = STARTS.map((start) => start.label).join(', ')
  bench.progress(`timing ${bench.runs} starts of dist/index.js (${labels}) and of bare Node`)
  const kinds = []
  for (const { label, event, inputs } of STARTS) {
    // The job has ended by the first check: each run is a start, one short wait and the report.
    /** @type {RunOptions} */
    const quick = { scenario: { jobDurationMs: 0, github: { files: null } }, event, inputs }
    const first = (await bench.runAction(quick)).requests.find((r) => !isGitHub(r))
    if (!first) throw new Error('dist/index.js sent no Mintlify request')
    /** @type {{ action: number[], bare: number[] }} */
    const times = { action: [], bare: [] }
    kinds.push({
      label,
      goal: STARTS.find((start) => start.label === label)?.goal ?? false,
      first,
      times,
      timeAction: async () => times.action.push((await bench.runAction(quick)).firstRequestMs),
      timeBare: async () => times.bare.push((await bench.runBare(first)).firstRequestMs)
    })
  }
  const turns = kinds.flatMap((kind) => [kind.timeBare, kind.timeAction])
  for (let i = 0; i < WARM_UPS; i++) {
    for (const turn of turns) await turn()
  }
  // The warm-ups are not counted.
  for (const { times } of kinds) {
    times.action = []
    times.bare = []
  }
  for (let i = 0; i < bench.runs; i++) {
    for (let j = 0; j < turns.length; j++) await turns[(i + j) % turns.length]?.()
  }

  return kinds.flatMap(({ label, goal, first, times: { action, bare } }) => {
    const ratio = median(action) / median(bare)
    return [
      {
        what: `Start-up, ${label}: time to the first Mintlify request, against bare Node sending it`,
        goal: goal ? `≤ ${GOAL.startupRatio}×` : undefined,
        measured: `${ratio.toFixed(2)}× (${millis(median(action))} vs ${millis(median(bare))})`,
        met: goal ? ratio <= GOAL.startupRatio : undefined
      },
      { what: '… dist/index.js, min / median / max', measured: spread(action) },
      {
        what: `… bare Node (\`${first.method}\` with fetch), min / median / max`,
        measured: spread(bare)
      }
    ]
  })
}

/**
 * The change context per kind of event: how many GitHub requests a run makes (the simulator's
 * recorded requests under `/repos/`) and how many characters it adds after the prompt input (the
 * created job's prompt, less the input), for the simulator's built-in change and for changes
 * touching `CHANGE_SIZES` files. `context-max-chars` keeps its default.
 *
 * @type {Measurement}
 */
async function changeContext(bench) {
  bench.progress('counting the GitHub requests and prompt characters of the change context')
  /** @type {Row[]} */
  const rows = [
    {
      what: 'Change context: GitHub requests per run / characters added to the prompt',
      measured: ''
    }
  ]
  for (const event of Object.values(EVENT)) {
    for (const size of [undefined, ...CHANGE_SIZES]) {
      const files = size === undefined ? null : changedFiles(size)
      const run = await bench.runAction({
        event,
        inputs: CONTEXT_ONLY,
        scenario: { jobDurationMs: 0, github: { files } }
      })
      const github = run.requests.filter(isGitHub).length
      const created = run.requests.find((r) => r.method === 'POST' && /\/job$/.test(r.path))
      const prompt = created ? JSON.parse(created.body).prompt : undefined
      if (typeof prompt !== 'string' || !prompt.startsWith(PROMPT)) {
        throw new Error('dist/index.js created no job whose prompt starts with the prompt input')
      }
      const touched = size ?? BUILT_IN_FILES
      const goal = touched <= GOAL.githubFiles
      rows.push({
        what:
          `… \`${event.name}\` (${event.payload}), ${touched} changed files` +
          (size === undefined ? " (the simulator's built-in change)" : ''),
        goal: goal ? `≤ ${GOAL.githubRequests} requests` : undefined,
        measured: `${github} / ${(prompt.length - PROMPT.length).toLocaleString('en-US')}`,
        met: goal ? github <= GOAL.githubRequests : undefined
      })
    }
  }

  // The pull request comment, with the defaults: find, create at the start, update at the end,
  // and on a push the lookup of the pushed commit's pull request.
  rows.push({ what: 'Pull request comment: GitHub requests per run (the defaults)', measured: '' })
  for (const event of Object.values(EVENT)) {
    const run = await bench.runAction({
      event,
      scenario: { jobDurationMs: 0, github: { files: null } }
    })
    const comment = run.requests.filter((r) => isGitHub(r) && /\/comments|\/pulls\?/.test(r.path))
    const lookup = comment.filter((r) => /\/commits\/[^/]+\/pulls/.test(r.path)).length
    const limit = GOAL.commentRequests + lookup
    rows.push({
      what: `… \`${event.name}\` (${event.payload})${lookup ? ', with the commit-to-PR lookup' : ''}`,
      goal: `≤ ${limit} requests`,
      measured: String(comment.length),
      met: comment.length <= limit
    })
  }
  return rows
}

/** How many files the simulator's built-in change touches (see simulator/github-data.js). */
const BUILT_IN_FILES = 6

/**
 * `count` modified source files, each with a small diff, as the simulator's GitHub serves them.
 *
 * @param {number} count
 * @returns {import('../simulator/scenario.js').GitHubFileInput[]}
 */
function changedFiles(count) {
  return Array.from({ length: count }, (_, i) => ({
    filename: `src/module${i}/index.ts`,
    status: 'modified',
    patch:
      `@@ -10,4 +10,5 @@ export function handler${i}(request: Request) {\n` +
      '   const options = parse(request)\n' +
      '-  return run(options)\n' +
      `+  const limit = options.limit ?? ${i + 10}\n` +
      '+  return run({ ...options, limit })\n' +
      ' }'
  }))
}

/**
 * @param {RecordedRequest} request
 * @returns {boolean} whether it went to the simulator's GitHub
 */
function isGitHub(request) {
  return request.path.includes('/repos/')
}

/**
 * Peak memory: the largest resident set of whole runs, with bare Node sending the same first
 * request for scale.
 *
 * @type {Measurement}
 */
async function memory(bench) {
  bench.progress(`reading the peak memory of ${RSS_RUNS} whole runs`)
  const { jobMs, ...inputs } = RSS_JOB
  /** @type {number[]} */
  const action = []
  /** @type {number[]} */
  const bare = []
  for (let i = 0; i < RSS_RUNS; i++) {
    const run = await bench.runAction({ inputs, scenario: { jobDurationMs: jobMs }, rss: true })
    const first = run.requests[0]
    if (!first) throw new Error('dist/index.js sent no request')
    action.push(run.maxRssBytes ?? NaN)
    bare.push((await bench.runBare(first, { rss: true })).maxRssBytes ?? NaN)
  }
  return [
    {
      what: `Peak memory (RSS) of a whole run, largest of ${RSS_RUNS}`,
      measured: megabytes(Math.max(...action))
    },
    {
      what: '… bare Node sending the same first request',
      measured: megabytes(Math.max(...bare))
    }
  ]
}

/**
 * Size: what every workflow run downloads and Node compiles before the first request.
 *
 * @type {Measurement}
 */
function size() {
  const bytes = readFileSync(BUNDLE).length
  return Promise.resolve([
    {
      what: 'Size of dist/index.js',
      goal: `< ${GOAL.bundleBytes / 1_000_000} MB`,
      measured: `${kilobytes(bytes)} (${bytes.toLocaleString('en-US')} bytes)`,
      met: bytes < GOAL.bundleBytes
    }
  ])
}

/**
 * What the bench measures, in the order of the report. Another figure is one more function
 * here. One that counts what a run sends, as `changeContext` does, reads it from
 * `(await bench.runAction()).requests`, which the simulator recorded.
 *
 * @type {Measurement[]}
 */
const MEASUREMENTS = [startup, changeContext, memory, size]

// ---------------------------------------------------------------------------------------------
// Running processes against the simulator

/**
 * @param {Simulator} simulator
 * @param {() => Promise<number>} nextRequest resolves at the `performance.now()` of the next
 *   request the simulator logs
 * @param {number} runs
 * @param {(stage: string) => void} progress
 * @returns {Bench}
 */
function bench(simulator, nextRequest, runs, progress) {
  /**
   * @param {string[]} args Node's arguments
   * @param {{ inputs?: Record<string, string>, env?: Record<string, string>, rss?: boolean }} step
   * @returns {Promise<Run>} once the process has exited, and it has sent a Mintlify request
   */
  const run = async (args, { inputs = {}, env = {}, rss = false }) => {
    const dir = mkdtempSync(join(tmpdir(), 'mintlify-agent-bench-'))
    try {
      const step = runnerStep(inputs, dir, env)
      const rssFile = join(dir, 'maxrss')
      const preload = rss ? ['--import', writeRssPreload(rssFile)] : []
      const before = simulator.requests.length
      const arrived = nextRequest()
      const child = await runChild([...preload, ...args], step.env, dir)
      const requests = simulator.requests.slice(before)
      if (child.code !== 0 || requests.length === 0) {
        throw new Error(
          `node ${args.join(' ')} exited with ${child.code ?? child.signal} after ` +
            `${requests.length} requests:\n${child.output}`
        )
      }
      return {
        requests,
        firstRequestMs: (await arrived) - child.started,
        maxRssBytes: rss ? Number(readFileSync(rssFile, 'utf8')) * 1024 : undefined,
        outputs: Object.fromEntries(parseOutputFile(readFileSync(step.outputFile, 'utf8'))),
        summary: readFileSync(step.summaryFile, 'utf8')
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  return {
    runs,
    progress,
    runAction: async ({ inputs, scenario, event, rss } = {}) => {
      if (scenario) simulator.setScenario(scenario)
      const action = await run([BUNDLE], {
        inputs: {
          prompt: PROMPT,
          'project-id': 'proj_bench',
          'api-key': API_KEY,
          'base-url': simulator.url,
          'poll-interval': '20ms',
          'max-poll-interval': '20ms',
          timeout: '1m',
          ...(event ? { 'github-token': GITHUB_TOKEN } : {}),
          ...inputs
        },
        env: event
          ? runnerEvent(event.name, join(EVENTS, event.payload), simulator.url)
          : undefined,
        rss
      })
      if (action.outputs.status !== 'completed') {
        throw new Error(`dist/index.js reported status ${action.outputs.status ?? 'unset'}`)
      }
      return action
    },
    runBare: (request, { rss } = {}) => {
      const init = {
        method: request.method,
        headers: Object.fromEntries(
          Object.entries(request.headers).filter(([name]) => !UNSENDABLE.has(name))
        ),
        body: ['GET', 'HEAD'].includes(request.method) ? undefined : request.body
      }
      const script =
        'const { url, init } = JSON.parse(process.env.BENCH_REQUEST);' +
        'fetch(url, init).then((res) => res.arrayBuffer())'
      const env = { BENCH_REQUEST: JSON.stringify({ url: simulator.url + request.path, init }) }
      return run(['-e', script], { env, rss })
    }
  }
}

/** Headers fetch sets itself. */
const UNSENDABLE = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive'
])

/**
 * Starts Node with `args` and waits for it to exit, killing it if it hangs.
 *
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @param {string} cwd
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, started: number, output: string }>}
 */
function runChild(args, env, cwd) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, {
      env,
      cwd,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += String(chunk)))
    child.stderr.on('data', (chunk) => (output += String(chunk)))
    const watchdog = setTimeout(() => child.kill('SIGKILL'), WATCHDOG_MS)
    child.on('error', (error) => {
      clearTimeout(watchdog)
      reject(error)
    })
    child.on('close', (code, signal) => {
      clearTimeout(watchdog)
      resolve({ code, signal, started, output })
    })
  })
}

/**
 * A module that, preloaded with `node --import`, writes the process's peak resident set in
 * kilobytes to `file` as it exits.
 *
 * @param {string} file
 * @returns {string} its file URL
 */
function writeRssPreload(file) {
  const preload = `${file}.mjs`
  writeFileSync(
    preload,
    "import { writeFileSync } from 'node:fs'\n" +
      `process.on('exit', () => writeFileSync(${JSON.stringify(file)}, ` +
      'String(process.resourceUsage().maxRSS)))\n'
  )
  return pathToFileURL(preload).href
}

// ---------------------------------------------------------------------------------------------
// Numbers and the report

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

/** @param {number[]} values */
function spread(values) {
  return [Math.min(...values), median(values), Math.max(...values)].map(millis).join(' / ')
}

/** @param {number} ms */
function millis(ms) {
  return `${ms.toFixed(1)} ms`
}

/** @param {number} bytes 1 KB = 1,000 bytes */
function kilobytes(bytes) {
  return `${(bytes / 1000).toFixed(1)} KB`
}

/** @param {number} bytes 1 MB = 1,000,000 bytes */
function megabytes(bytes) {
  return `${(bytes / 1_000_000).toFixed(1)} MB`
}

/**
 * @param {Row[]} rows
 * @param {number} runs
 * @returns {string} the whole of docs/benchmarks.md, before formatting
 */
function render(rows, runs) {
  const line = (/** @type {string[]} */ cells) => `| ${cells.join(' | ')} |`
  const table = [
    line(['Measurement', 'Goal', 'Result', '']),
    line(['---', '---', '---', '---']),
    ...rows.map((row) =>
      line([
        row.what,
        row.goal ?? '',
        row.measured,
        row.met === undefined ? '' : row.met ? '✅' : '❌'
      ])
    )
  ].join('\n')
  const missed = rows.filter((row) => row.met === false).map((row) => row.what)
  const bundle = readFileSync(BUNDLE)
  let commit = 'unknown'
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8'
    }).trim()
  } catch {
    // Not a git checkout; the numbers still stand.
  }

  return `# Benchmarks

What running the action costs, measured by \`npm run bench\` (scripts/bench.js) on
${new Date().toISOString().slice(0, 10)}. Re-run it to refresh this page rather than editing it.

${table}

${missed.length === 0 ? 'Every goal is met.' : `Goals missed: ${missed.join('; ')}.`}

How often the action polls and how soon it notices that a job has ended follow from its schedule
alone, so they are checked by tests rather than measured: \`__tests__/schedule.test.ts\` holds the
goals (jobs of 2 minutes or more polled at least 3× less often than every 5 s, the end noticed
within \`max-poll-interval\`) and the number of polls for jobs from 30 s to an hour.

## How measured

- **Start-up**: from just before \`spawn\` to the local API simulator (simulator/server.js, on
  127.0.0.1 in the bench's own process) logging the first Mintlify request. \`node dist/index.js\`
  is started as a runner starts it (\`INPUT_*\` variables, \`GITHUB_OUTPUT\` and
  \`GITHUB_STEP_SUMMARY\` files) and must report the job completed; bare Node is \`node -e\` sending
  the same request with \`fetch\`. Outside a workflow there is no event, so the action reads
  nothing from GitHub. On the push event (\`${EVENT.push?.payload}\` with the \`GITHUB_*\` variables
  a runner sets, \`GITHUB_API_URL\` pointing at the simulator, which also plays GitHub's REST API,
  and a \`github-token\` input) it first reads the change from GitHub and adds it to the prompt,
  and that time counts. ${runs} runs of each after ${WARM_UPS} warm-ups, taking turns in an order
  that rotates each round; each ratio is of the medians.
- **Change context**: one run per row on the event's payload from \`__fixtures__/events/\`.
  GitHub requests are those the simulator recorded under \`/repos/\`; the characters added are
  the length of the created job's prompt less the \`prompt\` input's (${PROMPT.length} characters),
  with \`context-max-chars\` at its default (16,000). The changed files are the simulator's
  built-in change (${BUILT_IN_FILES} files: source, test and docs with short diffs, a lock file too
  large to show, a bundle and an image) or, for the rows of ${CHANGE_SIZES.join(' and ')} files,
  generated source files with a small diff each (+2 −1), served by the comparison for the push and
  by the pull request's files for the pull request. The goal of at most ${GOAL.githubRequests}
  GitHub requests applies to changes of up to ${GOAL.githubFiles} files.
- **Memory**: \`process.resourceUsage().maxRSS\`, written at exit by a module preloaded with
  \`node --import\`, over whole runs that wait for a ${RSS_JOB.jobMs / 1000} s job with
  \`poll-interval: ${RSS_JOB['poll-interval']}\` and \`max-poll-interval: ${RSS_JOB['max-poll-interval']}\`.
- **Size**: the bytes of dist/index.js as committed (1 KB = 1,000 bytes, 1 MB = 1,000,000 bytes).
- **Machine**: ${availableParallelism()} CPUs, ${cpus()[0]?.model ?? 'unknown CPU'}, ${megabytes(totalmem())}
  memory, ${type()} ${release()}; Node ${process.version}; commit ${commit}, dist/index.js sha256
  \`${createHash('sha256').update(bundle).digest('hex').slice(0, 12)}\`. Timings move with the
  machine and its load.
`
}

// ---------------------------------------------------------------------------------------------

/**
 * @param {string[]} argv
 * @returns {Promise<number>} the exit status
 */
async function main(argv) {
  /** @type {number} */
  let runs
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        runs: { type: 'string', default: '15' },
        help: { type: 'boolean', default: false }
      }
    })
    if (values.help) {
      process.stdout.write(USAGE)
      return 0
    }
    runs = Number(values.runs)
    if (!Number.isInteger(runs) || runs < 3) throw new Error('--runs must be a whole number ≥ 3')
  } catch (error) {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)} (see --help)`)
    return 2
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

  /** @type {((at: number) => void) | undefined} */
  let waiting
  const simulator = await startSimulator({
    apiKey: API_KEY,
    log: (line) => {
      const at = performance.now()
      // Start-up is timed to the first Mintlify request; the action's GitHub reading precedes it.
      if (line.split(' ')[1]?.includes('/repos/')) return
      waiting?.(at)
      waiting = undefined
    },
    scenario: { rateLimit: { limit: 1_000_000 }, github: { token: GITHUB_TOKEN } }
  })
  try {
    const nextRequest = () => new Promise((resolve) => (waiting = resolve))
    const progress = (/** @type {string} */ stage) => console.error(`bench: ${stage}…`)
    const context = bench(simulator, nextRequest, runs, progress)
    /** @type {Row[]} */
    const rows = []
    for (const measure of MEASUREMENTS) rows.push(...(await measure(context)))

    const config = await prettier.resolveConfig(REPORT)
    // Formatted as `npm run format:check` expects, so a fresh report never fails CI; the prose is
    // wrapped here because the numbers spliced into it make its lines uneven.
    const report = await prettier.format(render(rows, runs), {
      ...config,
      filepath: REPORT,
      proseWrap: 'always'
    })
    writeFileSync(REPORT, report)
    process.stdout.write(report)
    console.error('bench: wrote docs/benchmarks.md')
    return 0
  } finally {
    await simulator.close()
  }
}

process.exitCode = await main(process.argv.slice(2)).catch((error) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`)
  return 1
})
