// @ts-check
// npm run bench: what running the action costs, written to docs/benchmarks.md. Times the start of
// `node dist/index.js` against bare Node sending the same requests to the local API simulator,
// counts the GitHub requests and prompt characters of the change context, reads the peak memory,
// weighs the bundle, and measures polling on the wait loop (scripts/bench-polling.js).
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, release, totalmem, type } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import * as prettier from 'prettier'
import { parse } from 'yaml'
import { bundleAt, lastReport } from './bench-before.js'
import { JOBS, REQUEST_MS, measurePolling } from './bench-polling.js'
import { previewCost } from './bench-preview.js'
import { BUNDLE, PROMPT, ROOT, isGitHub, rounds, startBench } from './bench-runs.js'

/**
 * @typedef {import('./bench-runs.js').BenchEvent} BenchEvent
 * @typedef {{ what: string, measured: string, goal?: string, met?: boolean }} Row
 * @typedef {Awaited<ReturnType<typeof startBench>> & { runs: number, progress: (s: string) => void,
 *   before: import('./bench-before.js').LastReport, earlier: ReturnType<typeof bundleAt> }} Bench
 */

const REPORT = join(ROOT, 'docs', 'benchmarks.md')
/** A row; without a goal, a figure for scale. @param {string} what @param {string} [measured] @param {string | false} [goal] @param {boolean} [met] @returns {Row} */
const row = (what, measured = '', goal = false, met) => ({ what, measured, goal: goal || '', met })
const GOAL = Object.freeze({
  startupRatio: 2.5, // time to the first Mintlify request, as a multiple of bare Node's
  githubRequests: 2, // GitHub requests of a run on a change of up to `githubFiles` files
  githubFiles: 100,
  commentRequests: 3, // the pull request comment: find, create or update, update at the end
  bundleBytes: 1_200_000,
  lateMs: 8000, // the default schedule notices a job's end this late on average, and…
  worstLateMs: 16_000 // …at worst, with no more checks on average than a fixed 10 s poll
})
/** @type {Record<string, BenchEvent>} */
const EVENT = {
  push: { name: 'push', payload: 'push.json' },
  pullRequest: { name: 'pull_request', payload: 'pull_request-opened.json' }
}
const BUILT_IN_FILES = 6 // the simulator's built-in change (simulator/github-change.json)
const [WARM_UPS, RSS_RUNS] = [2, 3]
const RSS_JOB = { 'poll-interval': '1s', 'max-poll-interval': '1s' } // for a 3 s job
const CONTEXT_ONLY = { comment: 'off', check: 'off', 'reuse-job': 'false' } // the change context alone
const QUICK = { jobDurationMs: 0, github: { files: null } } // ended by the first check

/** @type {{ label: string, event?: BenchEvent, inputs?: Record<string, string>, goal?: true }[]} */
const STARTS = [
  { label: 'outside a workflow', goal: true },
  { label: 'push event with context', event: EVENT.push, inputs: CONTEXT_ONLY, goal: true },
  { label: 'push event, the defaults (context, comment, check)', event: EVENT.push }
]

/**
 * Start-up: the bundle against bare Node sending the same requests, as `rounds` orders them, and
 * the bundle the last report measured, timed again. Each kind takes a turn in every round, so a
 * busy moment slows all alike.
 *
 * @param {Bench} bench @returns {Promise<Row[]>}
 */
async function startup(bench) {
  const earlier = 'file' in bench.earlier ? bench.earlier.file : undefined
  const { commit = 'unknown', date = 'an unknown day', cpu } = bench.before
  // Start-up is mostly one core's work: another processor moves every figure.
  const elsewhere = cpu && cpu !== cpus()[0]?.model ? `, on another processor: ${cpu}` : ''
  const also = earlier ? `, of ${commit}'s dist/index.js` : ''
  bench.progress(`timing ${bench.runs} starts of dist/index.js${also} and of bare Node per kind`)
  const kinds = []
  for (const { label, event, inputs, goal } of STARTS) {
    const options = { scenario: QUICK, event, inputs }
    const plan = rounds((await bench.runAction(options)).requests)
    /** @type {{ action: number[], bare: number[], earlier: number[] }} */
    const times = { action: [], bare: [], earlier: [] }
    const action = async () => times.action.push((await bench.runAction(options)).firstRequestMs)
    const bare = async () => times.bare.push((await bench.runBare(plan)).firstRequestMs)
    const again = async () =>
      times.earlier.push((await bench.runAction({ ...options, bundle: earlier })).firstRequestMs)
    // An earlier bundle that cannot finish this kind of run against today's simulator is left out.
    const refused = earlier ? await again().then(() => undefined, errorText) : undefined
    const turns = earlier && !refused ? [bare, action, again] : [bare, action]
    kinds.push({ label, goal, plan, times, refused, turns })
  }
  const turns = kinds.flatMap((kind) => kind.turns)
  for (let i = 0; i < WARM_UPS; i++) for (const turn of turns) await turn()
  for (const { times } of kinds) [times.action, times.bare, times.earlier] = [[], [], []]
  // Each round starts one turn later, and every other round goes backwards, so no kind always
  // runs just after another (after a lighter process, or after the same file was read).
  for (let i = 0; i < bench.runs; i++) {
    const order = i % 2 === 0 ? turns : [...turns].reverse()
    for (let j = 0; j < order.length; j++) await order[(i + j) % order.length]?.()
  }
  return kinds.flatMap(({ label, goal, plan, times, refused }) => {
    const { action, bare } = times
    const ratio = median(action) / median(bare)
    const sent = plan.map((round) => round.map((r) => r.method).join(' + ')).join(', then ')
    const what = `Start-up, ${label}: until the first Mintlify request leaves, against bare Node`
    const measured = `${ratio.toFixed(2)}× (${millis(median(action))} vs ${millis(median(bare))})`
    const recorded = bench.before.startups.get(label)
    const then = recorded === undefined ? 'none' : `${millis(recorded)} median`
    const again = refused
      ? `not timed: ${refused.split('\n')[0]}`
      : earlier
        ? `${spread(times.earlier)}; this one ${signed(median(action) - median(times.earlier))}`
        : 'none' in bench.earlier
          ? bench.earlier.none
          : ''
    console.error(
      `bench: ${label}: ${millis(median(action))} now; ${commit}'s bundle again: ${again || 'not run'}; ` +
        `recorded on ${date}${elsewhere}: ${then}`
    )
    return [
      row(what, measured, goal && `≤ ${GOAL.startupRatio}×`, goal && ratio <= GOAL.startupRatio),
      row('… dist/index.js, min / median / max', spread(action)),
      row(`… the last report's figure (${commit}, ${date}${elsewhere})`, then),
      row(`… ${commit}'s dist/index.js timed again now, min / median / max`, again),
      row(`… bare Node (${sent}), min / median / max`, spread(bare))
    ]
  })
}

/** The change context's cost per event, then the comment's. @param {Bench} bench @returns {Promise<Row[]>} */
async function changeContext(bench) {
  bench.progress('counting the GitHub requests and prompt characters of the change context')
  const rows = [row('Change context: GitHub requests / characters added')]
  for (const event of Object.values(EVENT)) {
    for (const size of [BUILT_IN_FILES, GOAL.githubFiles, 300]) {
      const files = size === BUILT_IN_FILES ? null : changedFiles(size)
      const scenario = { jobDurationMs: 0, github: { files } }
      const run = await bench.runAction({ event, inputs: CONTEXT_ONLY, scenario })
      const createdAt = run.requests.findIndex((r) => r.method === 'POST' && /\/job$/.test(r.path))
      const created = run.requests[createdAt]
      // The change context is read before the job is asked for; what follows reads the job's end.
      const github = run.requests.slice(0, createdAt).filter(isGitHub).length
      const prompt = created ? JSON.parse(created.body).prompt : undefined
      if (typeof prompt !== 'string' || !prompt.startsWith(PROMPT)) {
        throw new Error('dist/index.js created no job whose prompt starts with the prompt input')
      }
      const what = `… \`${event.name}\` (${event.payload}), ${size} changed files`
      const measured = `${github} / ${(prompt.length - PROMPT.length).toLocaleString('en-US')}`
      const goal = size <= GOAL.githubFiles
      const met = goal ? github <= GOAL.githubRequests : undefined
      rows.push(row(what, measured, goal && `≤ ${GOAL.githubRequests} requests`, met))
    }
  }
  rows.push(row('Pull request comment: GitHub requests per run (the defaults)'))
  for (const event of Object.values(EVENT)) {
    const run = await bench.runAction({ event, scenario: QUICK })
    const comment = run.requests.filter((r) => isGitHub(r) && /\/comments|\/pulls\?/.test(r.path))
    const lookup = comment.filter((r) => /\/commits\/[^/]+\/pulls/.test(r.path)).length
    const limit = GOAL.commentRequests + lookup
    const what = `… \`${event.name}\`${lookup ? ', with the commit-to-PR lookup' : ''}`
    rows.push(row(what, String(comment.length), `≤ ${limit} requests`, comment.length <= limit))
  }
  return rows
}

/** @param {number} count @returns {import('../simulator/scenario.js').GitHubFileInput[]} */
function changedFiles(count) {
  return Array.from({ length: count }, (_, i) => ({
    filename: `src/module${i}/index.ts`,
    status: 'modified',
    patch: `@@ -10,2 +10,3 @@\n-  return run(options)\n+  const limit = options.limit ?? ${i}\n+  return run({ ...options, limit })`
  }))
}

/** @param {Bench} bench @returns {Promise<Row[]>} */
async function memory(bench) {
  bench.progress(`reading the peak memory of ${RSS_RUNS} whole runs`)
  /** @type {[number[], number[]]} */
  const [action, bare] = [[], []]
  for (let i = 0; i < RSS_RUNS; i++) {
    const scenario = { jobDurationMs: 3000 }
    const run = await bench.runAction({ inputs: RSS_JOB, scenario, rss: true })
    action.push(run.maxRssBytes ?? NaN)
    bare.push((await bench.runBare(rounds(run.requests), true)).maxRssBytes ?? NaN)
  }
  return [
    row(`Peak memory (RSS) of a whole run, largest of ${RSS_RUNS}`, mb(Math.max(...action))),
    row('… bare Node sending the same first request', mb(Math.max(...bare)))
  ]
}

/**
 * Polling, on the wait loop and (in brackets) on the schedule's model: the old default, the one
 * in action.yml, which the goals are for, and a fixed 10 s poll. @param {Bench} bench
 */
async function polling(bench) {
  bench.progress(`waiting for ${JOBS.length} jobs per schedule on the wait loop`)
  const { inputs } = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'))
  const [initialMs, maxMs] = ['poll-interval', 'max-poll-interval'].map(
    (name) => 1000 * Number(/^(\d+)s$/.exec(inputs[name].default)?.[1])
  )
  const pace = { initialMs: initialMs ?? NaN, maxMs: maxMs ?? NaN }
  const every10s = { initialMs: 10_000, maxMs: 10_000 }
  const most = (await measurePolling(ROOT, every10s, false)).loop.polls
  /** @type {[string, import('../src/clients/mintlify/schedule.js').PollPace, boolean][]} */
  const schedules = [
    ['the old default: 5 s, ×1.5 up to 30 s', { initialMs: 5000, maxMs: 30_000 }, true],
    [`the default: ${pace.initialMs / 1000} s, ×1.5 up to ${pace.maxMs / 1000} s`, pace, true],
    ['a fixed 10 s poll, no jitter', every10s, false]
  ]
  const what = `Polling jobs of 1 to 10 minutes, ${REQUEST_MS} ms per check: checks per job`
  const rows = [row(`${what} (mean / longest job); end noticed after (mean / worst)`)]
  for (const [label, p, jitter] of schedules) {
    const { loop, model } = await measurePolling(ROOT, p, jitter)
    const figures = (/** @type {import('./bench-polling.js').Figures} */ f) =>
      `${f.polls.toFixed(1)} / ${f.longest}; ${secs(f.lateMs)} / ${secs(f.worstLateMs)}`
    const { lateMs, worstLateMs } = GOAL
    const goal = p === pace && `≤ ${most.toFixed(1)}; ≤ ${secs(lateMs)} / ≤ ${secs(worstLateMs)}`
    const met = loop.polls <= most && loop.lateMs <= lateMs && loop.worstLateMs <= worstLateMs
    const measured = `${figures(loop)} (${figures(model)})`
    rows.push(row(`… ${label}`, measured, goal, goal ? met : undefined))
  }
  return rows
}

function size() {
  const bytes = readFileSync(BUNDLE).length
  const measured = `${(bytes / 1000).toFixed(1)} KB (${bytes.toLocaleString('en-US')} bytes)`
  const goal = `< ${GOAL.bundleBytes / 1_000_000} MB`
  return Promise.resolve([row('Size of dist/index.js', measured, goal, bytes < GOAL.bundleBytes)])
}

/** @param {number[]} values */
function median(values) {
  const [sorted, mid] = [[...values].sort((a, b) => a - b), Math.floor(values.length / 2)]
  return ((sorted[mid] ?? NaN) + (sorted[sorted.length % 2 ? mid : mid - 1] ?? NaN)) / 2
}
const spread = (/** @type {number[]} */ values) =>
  [Math.min(...values), median(values), Math.max(...values)].map(millis).join(' / ')
const millis = (/** @type {number} */ ms) => `${ms.toFixed(1)} ms`
const errorText = (/** @type {unknown} */ error) =>
  error instanceof Error ? error.message : String(error)
const signed = (/** @type {number} */ ms) => `${ms < 0 ? '−' : '+'}${millis(Math.abs(ms))}`
const secs = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`
const mb = (/** @type {number} */ bytes) => `${(bytes / 1_000_000).toFixed(1)} MB`

/** @param {Row[]} rows @param {number} runs @returns {string} the report, before formatting */
function render(rows, runs) {
  const line = (/** @type {string[]} */ cells) => `| ${cells.join(' | ')} |`
  const table = [line(['Measurement', 'Goal', 'Result', '']), line(['---', '---', '---', '---'])]
  for (const { what, goal = '', measured, met } of rows) {
    table.push(line([what, goal, measured, met === undefined ? '' : met ? '✅' : '❌']))
  }
  const missed = rows.filter((row) => row.met === false).map((row) => row.what)
  const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' })
  const commit = git.stdout?.trim() || 'unknown'
  return `# Benchmarks

What running the action costs, measured by \`npm run bench\` (scripts/bench*.js) on
${new Date().toISOString().slice(0, 10)}. Re-run it to refresh this page rather than editing it.

${table.join('\n')}

${missed.length === 0 ? 'Every goal is met.' : `Goals missed: ${missed.join('; ')}.`}

## How measured

- **Start-up**: from \`spawn\` until the first Mintlify request leaves: its head reaching the
  simulator (127.0.0.1, in the bench's process), before the simulator reads or answers it;
  \`node dist/index.js\` runs as a runner starts it. Bare Node (\`node -e\` with \`fetch\`) sends the
  requests the action sent up to then, in as few rounds as a script could: GitHub's at once (a
  pull request's comments after the lookup that finds it), then the Mintlify one. ${runs} runs
  each after ${WARM_UPS} warm-ups, in turns rotating both ways; ratios of medians. Under each, the figure
  the last report recorded, and the bundle of the commit it measured timed again in the same
  turns: a difference between the two bundles is the code's, not the machine's or its load's.
- **Change context**: GitHub's example payloads (\`__fixtures__/events/\`); requests under
  \`/repos/\` before the job is asked for; characters of the prompt beyond the \`prompt\` input. ${BUILT_IN_FILES} files is the
  simulator's built-in change; larger ones are generated, +2 −1 per file.
- **Memory**: \`process.resourceUsage().maxRSS\` at exit, over whole runs waiting for a 3 s job
  with \`poll-interval: ${RSS_JOB['poll-interval']}\` and \`max-poll-interval: ${RSS_JOB['max-poll-interval']}\`.
- **Polling**: \`waitForJob\` from src/clients/mintlify/poll.ts, compiled from the sources, on a virtual clock, for
  ${JOBS.length} jobs ending at every whole second from 1 to 10 minutes, each check taking
  ${REQUEST_MS} ms and seeing the job as it is when it answers; 10 % jitter, seeded per job, but
  for the fixed poll. The end is noticed when the answer showing it arrives. The model sums
  \`pollDelay\` (src/clients/mintlify/schedule.ts) and ${REQUEST_MS} ms per check, as its tests do.
- **Preview**: a pull request run whose docs pull request is open, with \`preview: auto\` and
  \`preview: off\` in turns on the same bundle (scripts/bench-preview.js); the simulator's preview
  builds in 1.5 s; requests under \`/v1/\`; time from \`spawn\` to exit.
- **Machine**: ${availableParallelism()} CPUs, ${cpus()[0]?.model ?? 'unknown CPU'},
  ${mb(totalmem())} memory, ${type()} ${release()}; Node ${process.version}; commit ${commit}.
  Timings move with the machine and its load.
`
}

/** @param {string[]} argv @returns {Promise<number>} the exit status */
async function main(argv) {
  const options = { runs: { type: /** @type {const} */ ('string'), default: '15' } }
  const runs = Number(parseArgs({ args: argv, options }).values.runs)
  if (!Number.isInteger(runs) || runs < 3) {
    console.error('Usage: npm run bench [-- --runs N]   N ≥ 3 timed starts per kind, default 15')
    return 2
  }
  if (!existsSync(BUNDLE)) throw new Error('dist/index.js is missing: run `npm run build` first.')
  const before = lastReport(existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : '')
  const earlier = before.commit
    ? bundleAt(ROOT, before.commit, BUNDLE)
    : { none: 'the last report names no commit' }
  const started = await startBench()
  try {
    const progress = (/** @type {string} */ stage) => console.error(`bench: ${stage}…`)
    const bench = { ...started, runs, progress, before, earlier }
    const rows = []
    // The preview's cost, on dist/index.js as every other row.
    const preview = (/** @type {Bench} */ b) => previewCost(b, BUNDLE)
    for (const measure of [startup, changeContext, memory, polling, preview, size]) {
      rows.push(...(await measure(bench)))
    }
    // Formatted as `npm run format:check` expects; the numbers make the prose lines uneven.
    const config = { ...(await prettier.resolveConfig(REPORT)), filepath: REPORT }
    const report = await prettier.format(render(rows, runs), { ...config, proseWrap: 'always' })
    writeFileSync(REPORT, report)
    console.error('bench: wrote docs/benchmarks.md')
    return 0
  } finally {
    await started.close()
    if ('remove' in earlier) earlier.remove()
  }
}

process.exitCode = await main(process.argv.slice(2)).catch((error) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`)
  return 1
})
