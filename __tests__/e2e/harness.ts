import { afterAll, afterEach, beforeAll, jest } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startSimulator } from '../../simulator/server.js'
import { awaitBundle } from '../../scripts/bundle.js'
import { parseOutputFile, runnerStep } from '../../scripts/runner.js'
import { checkName } from '../../src/report/check.js'
import { parseDuration } from '../../src/base/duration.js'
import { budgetsFor } from '../../src/clients/github/policy.js'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** The bundle of the sources under test, chosen or built by this project's globalSetup (build-bundle.js). */
export const BUNDLE = await bundleUnderTest()
export const KEY = 'mint_simulator_key'
/**
 * Node's cache of the bundle's compiled code, shared by every run: each run then spends less of
 * its CPU time starting, hundreds of runs over.
 */
const COMPILE_CACHE = join(tmpdir(), 'mintlify-agent-action-e2e-compile-cache')
/** Loaded before the bundle in a file that warps time (see `warpTime`). */
const WARP = join(ROOT, '__tests__', 'e2e', 'warp.js')

/**
 * The clock of this file's runs and simulators: `at` on it was real time `real`, and it runs
 * `scale` times as fast as real time from there. Real time unless the file warps it.
 */
const loaded = realNow()
const time = { scale: 1, at: loaded, real: loaded }

/**
 * How many times slower than a quiet machine the end-to-end tests hold on: a machine whose cores
 * other work keeps busy. Every bound these tests keep on time that real work fills (a budget
 * GitHub must answer within, a bound on how long a run took, a run's own time limit) leaves room
 * for that work to take this many times as long as it does on a quiet machine.
 */
export const SLOWER = 10

/**
 * What a run does besides waiting, on a quiet machine, in real time: Node starting and loading
 * the bundle (about 100 ms on two cores), reading the event, a few requests to the simulator
 * (milliseconds each) and writing its outputs.
 */
const QUIET_WORK_MS = 300

/**
 * How much of this file's clock a run's own work may take: `quietMs` of real time on a quiet
 * machine, `SLOWER` times as long, at this file's pace. The room a bound on a run's duration
 * leaves above what the action waits for.
 */
export function margin(quietMs = QUIET_WORK_MS): number {
  return quietMs * SLOWER * time.scale
}

/**
 * The latest a run with a `timeout` of `timeoutMs` may end, on this file's clock: its timeout,
 * the last writes' budget after it, and its own work (`margin`).
 */
export function endsBy(timeoutMs: number): number {
  return timeoutMs + budgetsFor(timeoutMs).last + margin()
}

/**
 * The pace for a file whose runs wait for their job's first check (a second), and some for
 * retries and deadlines, and meet GitHub's budgets: three times as fast as real time, since what
 * these tests prove is what the action sends, writes and says. Not faster: with `QUICK`'s timeout
 * the budgets are GitHub's longest (the last writes' 5 s, over 1.6 s of real time here), and a
 * run's last writes, a few requests of tens of milliseconds on a quiet machine, must fit in them
 * on a machine `SLOWER` times slower. A run with a shorter timeout has shorter budgets: it runs at
 * `SHORT_TIMEOUT` (`atPace`).
 */
export const WITH_GITHUB = 3

/**
 * The pace for a run whose timeout is 10 to 30 s and that meets GitHub's budgets: the last
 * writes then have 1 to 3 s, half a second or more of real time at this pace.
 */
export const SHORT_TIMEOUT = 2

/** Runs `run` at `scale` (see `warpTime`), then goes back to this file's pace. */
export async function atPace<T>(scale: number, run: () => Promise<T>): Promise<T> {
  const before = time.scale
  warpTime(scale)
  try {
    return await run()
  } finally {
    warpTime(before)
  }
}

/**
 * The pace for a file whose runs wait as above but have no GitHub budgets to keep real time for:
 * ten times as fast as real time, since what they prove is what the action sends and says, and
 * when on its own clock.
 */
export const WITHOUT_GITHUB = 10

/**
 * Runs this file's actions and simulators on a clock `scale` times as fast as real time, from now
 * on (1: real time again; the clock goes on from where it is): the bundle's clock and timers
 * (through warp.js, loaded before it) and the simulator's (jobs age, slowed answers wait). For
 * runs that wait out timeouts, poll intervals, budgets and hangs, where waiting in real time
 * proves nothing. Call it at the top of a file; `warpTimeIn` does it for one `describe`.
 *
 * Real latency and CPU time are multiplied too, on the action's clock, so the scale stays modest:
 * every time limit a test relies on (the timeout, GitHub's budgets from it, a bound it asserts)
 * leaves room for what the run does on a machine `SLOWER` times slower than a quiet one
 * (`margin`), and a test whose words or bound depend on real elapsed time runs at pace 1.
 */
export function warpTime(scale: number): void {
  const at = now()
  Object.assign(time, { scale, at, real: realNow() })
}

/** `warpTime(scale)` for the tests of the `describe` this is called in, and the file's after. */
export function warpTimeIn(scale: number): void {
  let before = time.scale
  beforeAll(() => {
    before = time.scale
    warpTime(scale)
  })
  afterAll(() => warpTime(before))
}

function realNow(): number {
  return performance.timeOrigin + performance.now()
}

/** Now on this file's clock: `Date.now()`, or faster while `warpTime` says so. */
export function now(): number {
  return time.at + (realNow() - time.real) * time.scale
}

/** `setTimeout` on this file's clock. */
function setTimer(callback: () => void, ms: number): NodeJS.Timeout {
  return setTimeout(callback, ms / time.scale)
}

async function bundleUnderTest(): Promise<string> {
  const bundle = process.env.E2E_BUNDLE
  if (!bundle) {
    throw new Error(
      'E2E_BUNDLE is not set: run the end-to-end tests with `npm test`, which builds it'
    )
  }
  const builder = Number(process.env.E2E_BUNDLE_BUILDER) || undefined
  await awaitBundle(dirname(bundle), builder)
  return bundle
}

/**
 * Inputs that make a run against the simulator quick: checks a second apart, the most often the
 * action allows, so a job that takes a few hundred milliseconds is seen done at the first check.
 * The timeout is long enough that every GitHub budget is its longest (`budgetsFor`): GitHub's
 * answers then have seconds of real time, however busy the machine, and a run that needs none of
 * the timeout ends as soon as its job does.
 */
export const QUICK = {
  prompt: 'Document the new export endpoint',
  'project-id': 'proj_e2e',
  'api-key': KEY,
  'poll-interval': '1s',
  'max-poll-interval': '1s',
  timeout: '60s'
}

/**
 * Each run stops at its own limit (`runLimitMs`) and fails its test saying so, so a test's limit
 * in Jest only catches one waiting on something else: far above any test's runs.
 */
jest.setTimeout(10 * 60_000)

/** The action's own default timeout (action.yml). */
const DEFAULT_TIMEOUT_MS = 30 * 60_000

/**
 * The most a run's own work takes on a quiet machine: about a second for the heaviest, which reads
 * and cuts a megabyte answer (hostile.test.ts), twice that to spare. Work is not bounded by the
 * action's deadline, which it may all come after.
 */
const HEAVIEST_WORK_MS = 2_000

/**
 * The longest a run may take in real time: its timeout and the last writes' budget at this file's
 * pace, then the heaviest run's own work on a machine `SLOWER` times slower than a quiet one. A
 * run past it is stopped and its test fails saying so, rather than wait for Jest's limit.
 */
export function runLimitMs(inputs: Record<string, string>): number {
  const timeoutMs = parseDuration(inputs.timeout ?? '', 'm') ?? DEFAULT_TIMEOUT_MS
  return (timeoutMs + budgetsFor(timeoutMs).last) / time.scale + HEAVIEST_WORK_MS * SLOWER
}

export interface ActionRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  /** Output names in the order they were written, repeats included. */
  outputNames: string[]
  summary: string
  /**
   * How long the run took on this file's clock: from the spawn, or, when the file warps time, as
   * the run's own clock counted it from the action's start (see warp.js).
   */
  ms: number
}

/**
 * Runs the bundle under test as a runner does: inputs as `INPUT_*` variables (hyphens kept),
 * outputs and summary in temporary files, nothing else of this process's environment that the
 * action reads.
 */
export async function runAction(
  inputs: Record<string, string>,
  options: {
    env?: Record<string, string>
    cwd?: string
    onSpawn?: (child: ChildProcess) => void
  } = {}
): Promise<ActionRun> {
  const dir = mkdtempSync(join(tmpdir(), 'action-run-'))
  const { env, outputFile, summaryFile } = runnerStep(inputs, dir, options.env)

  const elapsedFile = join(dir, 'elapsed-ms')
  // Real time again after a faster pace still keeps the file's clock, which is ahead of it.
  const warped = time.scale > 1 || time.at !== time.real
  const warp = {
    E2E_TIME_SCALE: String(time.scale),
    E2E_TIME_AT: String(time.at),
    E2E_TIME_REAL: String(time.real),
    E2E_TIME_ELAPSED: elapsedFile
  }
  const started = performance.now()
  const child = spawn(process.execPath, warped ? ['--import', WARP, BUNDLE] : [BUNDLE], {
    cwd: options.cwd ?? dir,
    env: { ...env, NODE_COMPILE_CACHE: COMPILE_CACHE, ...(warped ? warp : {}) },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  options.onSpawn?.(child)
  const limitMs = runLimitMs(inputs)
  let overran = false
  const watchdog = setTimeout(() => {
    overran = true
    child.kill('SIGKILL')
  }, limitMs)
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s]))
  )
  clearTimeout(watchdog)
  if (overran) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(
      `The run outlasted its timeout, the last writes' budget and its work on a machine ` +
        `${SLOWER} times slower than a quiet one (${Math.round(limitMs)} ms of real time): stopped.\n` +
        `Its log so far:\n${stdout}${stderr}`
    )
  }
  const spawnedMs = (performance.now() - started) * time.scale
  const ms =
    warped && existsSync(elapsedFile) ? Number(readFileSync(elapsedFile, 'utf8')) : spawnedMs
  const written = parseOutputFile(readFileSync(outputFile, 'utf8'))
  const summary = readFileSync(summaryFile, 'utf8')
  rmSync(dir, { recursive: true, force: true })
  return {
    code,
    signal,
    stdout,
    stderr,
    outputs: Object.fromEntries(written),
    outputNames: written.map(([name]) => name),
    summary,
    ms
  }
}

/** Lines of the log that the runner would read as workflow commands. */
export function commandLines(log: string): string[] {
  return log.split(/\r?\n/).filter((line) => /^\s*::/.test(line) || line.includes('##['))
}

/** Resolves once `child` has printed a line matching `pattern` on stdout. */
export function waitForLine(child: ChildProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    let seen = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString()
      if (pattern.test(seen)) resolve()
    })
  })
}

export interface Proxy {
  url: string
  /** `host:port` of every CONNECT tunnel asked for. */
  tunnels: string[]
  close(): Promise<void>
}

/**
 * A minimal HTTP CONNECT proxy, as on a company network, that sends every tunnel to `target`
 * on 127.0.0.1 whatever host was asked for, so no name is ever resolved.
 */
export async function startConnectProxy(targetPort: number): Promise<Proxy> {
  const tunnels: string[] = []
  const sockets = new Set<Socket>()
  const server: Server = createServer((_, res) => res.writeHead(405).end())
  server.on('connect', (req, client: Socket) => {
    tunnels.push(req.url ?? '')
    const upstream = connect(targetPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.pipe(client)
      client.pipe(upstream)
    })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => socket.destroy())
      socket.on('close', () => sockets.delete(socket))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}

export type Simulator = Awaited<ReturnType<typeof startSimulator>>
export type SimulatorOptions = NonNullable<Parameters<typeof startSimulator>[0]>
export type Scenario = NonNullable<SimulatorOptions['scenario']>

/**
 * How long jobs and preview builds take when a test does not say. The action checks a job at most
 * once a second, and a preview build as often, so a job or a build that ends only by its first
 * check costs a run a second or more that proves nothing.
 *
 * - A preview is built by the time it is first read, unless the scenario sets `preview.buildMs`.
 * - A job takes 100 ms: it is `active` when created, as the platform answers, and done at the
 *   first check. With `endedAtCreate`, the create answer already shows it ended, so a run waits
 *   for no check at all. That is only for runs that write no commit status: the action writes
 *   the final state beside a pending write GitHub has not answered yet, and again once it has, so
 *   a job that ends at once makes the number of status writes depend on how fast GitHub answered.
 *   A test that sets `jobDurationMs`, or makes reads of the job fail (and so needs reads), gets
 *   what it says either way.
 */
export function quickScenario(scenario: Scenario, { endedAtCreate = false } = {}): Scenario {
  const readsFail = (scenario.faults?.get?.length ?? 0) > 0 || (scenario.flakiness ?? 0) > 0
  const atOnce = endedAtCreate && scenario.jobDurationMs === undefined && !readsFail
  const job = atOnce ? { jobDurationMs: 0, endsAtCreate: true } : { jobDurationMs: 100 }
  return { ...job, ...scenario, preview: { buildMs: 0, ...scenario.preview } }
}

/**
 * Starts simulators for one test file and closes them all after each test: call `start` in a
 * test, `closeAll` in `afterEach`. Jobs and previews end as `quickScenario` says; a file whose runs
 * write no commit status passes `{ endedAtCreate: true }`. They keep this file's clock (`now`).
 */
export function simulators(defaults: { endedAtCreate?: boolean } = {}) {
  const running: Simulator[] = []
  return {
    start: async (scenario: Scenario = {}, options: Omit<SimulatorOptions, 'scenario'> = {}) => {
      const sim = await startSimulator({
        apiKey: KEY,
        now,
        setTimeout: setTimer,
        ...options,
        scenario: quickScenario(scenario, defaults)
      })
      running.push(sim)
      return sim
    },
    closeAll: () => Promise.all(running.splice(0).map((s) => s.close()))
  }
}

/** The commit the example push event ends on (`after` in __fixtures__/events/push.json). */
export const PUSHED = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821'

/** Four commits of a branch, oldest first, as full shas. */
export const [A, B, C, D] = ['a', 'b', 'c', 'd'].map((c) => c.repeat(40)) as [
  string,
  string,
  string,
  string
]

/**
 * The runner's variables for a run on one of GitHub's example events in __fixtures__/events/, with
 * the simulator playing GitHub. `GITHUB_SHA` is the event's `after` where it has one.
 */
export function onEvent(
  sim: Simulator,
  name: string,
  file: string,
  extra: Record<string, string> = {}
): { env: Record<string, string> } {
  const path = join(ROOT, '__fixtures__', 'events', file)
  const payload = JSON.parse(readFileSync(path, 'utf8')) as { after?: string }
  return {
    env: {
      GITHUB_REPOSITORY: 'Codertocat/Hello-World',
      GITHUB_EVENT_NAME: name,
      GITHUB_EVENT_PATH: path,
      GITHUB_API_URL: sim.url,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_SHA: payload.after ?? PUSHED,
      GITHUB_REF: 'refs/heads/changes',
      GITHUB_RUN_ID: '4242',
      ...extra
    }
  }
}

interface PushPayload {
  ref: string
  before: string
  after: string
  commits: { id: string; message: string; author: { username: string } }[]
  head_commit: { id: string }
}

/**
 * The runner's variables for a push of `after` onto `before` on `branch`, as GitHub's example
 * push describes one (one commit, `Change <sha>`), with the simulator playing GitHub.
 */
export function pushOnto(sim: Simulator, before: string, after: string, branch = 'main') {
  const payload = JSON.parse(
    readFileSync(join(ROOT, '__fixtures__', 'events', 'push.json'), 'utf8')
  ) as PushPayload
  payload.ref = `refs/heads/${branch}`
  payload.before = before
  payload.after = after
  payload.commits = [{ ...payload.commits[0]!, id: after, message: `Change ${after.slice(0, 7)}` }]
  payload.head_commit = { ...payload.head_commit, id: after }
  const path = join(mkdtempSync(join(tmpdir(), 'push-')), 'push.json')
  writeFileSync(path, JSON.stringify(payload))
  return onEvent(sim, 'push', 'push.json', {
    GITHUB_EVENT_PATH: path,
    GITHUB_SHA: after,
    GITHUB_REF: `refs/heads/${branch}`
  })
}

/** Starts a job on the simulator, as an earlier step would have, and forgets that request. */
export async function existingJob(sim: Simulator): Promise<string> {
  const response = await fetch(`${sim.url}/v2/agent/${QUICK['project-id']}/job`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ prompt: 'Document the deploy command' })
  })
  const { id } = (await response.json()) as { id: string }
  sim.requests.length = 0
  return id
}

/**
 * A job an earlier run started and the agent has finished, with its docs pull request: started on
 * the simulator and read until it completes, then those requests forgotten.
 */
export async function completedJob(sim: Simulator): Promise<string> {
  const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' }
  const base = `${sim.url}/v2/agent/${QUICK['project-id']}/job`
  const body = JSON.stringify({ prompt: 'Document the deploy command' })
  const created = await fetch(base, { method: 'POST', headers, body })
  const { id } = (await created.json()) as { id: string }
  for (let i = 0; i < 200; i++) {
    const job = (await (await fetch(`${base}/${id}`, { headers })).json()) as { status: string }
    if (job.status === 'completed') break
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  sim.requests.length = 0
  return id
}

/** The repository GitHub's example payloads run in (`@octokit/webhooks-examples`). */
export const CODE = 'Codertocat/Hello-World'

/** The docs check's name for the project `QUICK` gives. */
export const CONTEXT = checkName(QUICK['project-id'])

/** The `::warning` lines of a run's log. */
export const warnings = (log: string) => log.split('\n').filter((l) => l.startsWith('::warning'))

/** The prompt a request to Mintlify sent, or '' when it sent none. */
export const promptOf = (request: { body: string } | undefined) =>
  (JSON.parse(request?.body ?? '{}') as { prompt?: string }).prompt ?? ''

/** The requests the action sent the agent API. */
export const sentToMintlify = (sim: Simulator) =>
  sim.requests.filter((r) => r.path.startsWith('/v2/'))

/** What the action wrote on GitHub: every request but reads (GraphQL only reads). */
export const writesToGitHub = (sim: Simulator) =>
  sim.github.requests.filter((r) => r.method !== 'GET' && r.kind !== 'graphql')

/**
 * A file of end-to-end runs at `pace` (see `warpTime`), with its simulators, each closed after
 * the test that started it.
 */
export function endToEnd(pace: number, defaults: Parameters<typeof simulators>[0] = {}) {
  warpTime(pace)
  const sims = simulators(defaults)
  afterEach(() => sims.closeAll())
  return sims
}

/** The id of GitHub's example comment on pull request #2 (`issue_comment` example 0). */
export const COMMENT_ID = 492700400

/**
 * When a command's comment is written: the simulator's head commit of pull request #2 is dated
 * 2019-05-15T15:20:30Z, nine seconds after GitHub's example comment, so the command comes after
 * it and the head did not move since.
 */
export const COMMENT_WRITTEN = '2019-05-15T15:21:00Z'

/** GitHub's example `issue_comment` payload on pull request #2, as far as the tests edit it. */
export interface CommentPayload {
  action: string
  issue: { pull_request?: unknown }
  comment: {
    id: number
    body: string
    created_at: string
    user: { login: string; type: string; id: number }
  }
}

/**
 * A run on GitHub's example comment on pull request #2 with `body`, written at
 * `COMMENT_WRITTEN`, and `change` applied to the payload. What the fake GitHub holds of the
 * comment is the test's to set.
 */
export function onComment(
  sim: Simulator,
  body: string,
  change: (payload: CommentPayload) => void = () => {}
): { env: Record<string, string> } {
  const fixture = 'issue_comment-created-pull_request.json'
  const payload = JSON.parse(
    readFileSync(join(ROOT, '__fixtures__', 'events', fixture), 'utf8')
  ) as CommentPayload
  payload.comment.body = body
  payload.comment.created_at = COMMENT_WRITTEN
  change(payload)
  const path = join(mkdtempSync(join(tmpdir(), 'comment-')), 'event.json')
  writeFileSync(path, JSON.stringify(payload))
  // On issue_comment, GITHUB_SHA is the default branch's last commit, not the pull request's.
  return onEvent(sim, 'issue_comment', fixture, {
    GITHUB_EVENT_PATH: path,
    GITHUB_SHA: 'f'.repeat(40),
    GITHUB_REF: 'refs/heads/master'
  })
}
