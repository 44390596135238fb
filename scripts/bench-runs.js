// @ts-check
// Processes against the simulator for `npm run bench`: dist/index.js as a runner starts it, and
// bare Node sending the same requests with fetch.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { startSimulator } from '../simulator/server.js'
import { parseOutputFile, runnerEvent, runnerStep } from './runner.js'

/**
 * @typedef {import('../simulator/server.js').RecordedRequest} RecordedRequest
 * @typedef {{ name: string, payload: string }} BenchEvent a payload in __fixtures__/events/
 * @typedef {{ inputs?: Record<string, string>, scenario?: import('../simulator/scenario.js').ScenarioInput,
 *   event?: BenchEvent, rss?: boolean, bundle?: string }} RunOptions `rss`: read the peak memory;
 *   `bundle`: another build of the action than dist/index.js, such as an earlier commit's
 */

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const BUNDLE = join(ROOT, 'dist', 'index.js')
export const PROMPT = 'Document the new export endpoint'
const API_KEY = 'mint_simulator_key'
const GITHUB_TOKEN = 'ghs_bench_token_for_the_simulator' // the only one the simulator's GitHub takes
const INPUTS = { prompt: PROMPT, 'project-id': 'proj_bench', 'api-key': API_KEY, timeout: '1m' }
const WATCHDOG_MS = 60_000 // a child still running after this long is stuck: stop it and fail
/** Headers fetch sets itself. */
const UNSENDABLE = new Set(['host', 'connection', 'content-length', 'transfer-encoding'])
/** Preloaded with `--import`: prints the peak resident set in kilobytes as the process exits. */
const RSS_PRELOAD =
  'data:text/javascript,process.on("exit",()=>process.stderr.write(`\\nmaxrss=${process.resourceUsage().maxRSS}\\n`))'

/** GitHub's routes: REST under `/repos/`, and GraphQL (who the token is). */
const GITHUB_PATH = /\/repos\/|^(\/api)?\/graphql$/
/** @param {RecordedRequest} request @returns {boolean} whether it went to GitHub */
export const isGitHub = (request) => GITHUB_PATH.test(request.path)

/**
 * The requests a run sent up to its first Mintlify request, in the fewest rounds a script could
 * send them in: GitHub's at once, except a pull request's comments when a lookup of the commit's
 * pull requests had to find it first; then the Mintlify request, which carries what GitHub said.
 *
 * @param {RecordedRequest[]} requests @returns {RecordedRequest[][]}
 */
export function rounds(requests) {
  const first = requests.findIndex((request) => !isGitHub(request))
  const github = requests.slice(0, first)
  const lookup = github.some((r) => /\/commits\/[^/]+\/pulls/.test(r.path))
  const found = (/** @type {RecordedRequest} */ r) => lookup && /\/issues\/\d+\//.test(r.path)
  const all = [github.filter((r) => !found(r)), github.filter(found), [requests[first]]]
  return all.map((round) => round.flatMap((r) => (r ? [r] : []))).filter((r) => r.length > 0)
}

/** Starts the simulator, and gives the two ways of running against it and `close`. */
export async function startBench() {
  /** @type {((at: number) => void) | undefined} */
  let waiting
  const simulator = await startSimulator({
    apiKey: API_KEY,
    // Start-up is timed to the first Mintlify request's departure (its head arriving on loopback,
    // before the simulator reads or answers it); GitHub's requests come before it.
    received: (_method, path) => {
      if (GITHUB_PATH.test(path)) return
      waiting?.(performance.now())
      waiting = undefined
    },
    scenario: { rateLimit: { limit: 1_000_000 }, github: { token: GITHUB_TOKEN } }
  })
  /** @returns {Promise<number>} the `performance.now()` the next Mintlify request arrived */
  const nextRequest = () => new Promise((resolve) => (waiting = resolve))
  /**
   * Once the process has exited, having sent a request: what the simulator received, the time
   * from `spawn` to the first Mintlify request, the peak memory if asked, the outputs.
   *
   * @param {string[]} args @param {Record<string, string>} inputs @param {Record<string, string>} env
   * @param {boolean} rss
   */
  const run = async (args, inputs, env, rss) => {
    const dir = mkdtempSync(join(tmpdir(), 'mintlify-agent-bench-'))
    try {
      const step = runnerStep(inputs, dir, env)
      const before = simulator.requests.length
      const arrived = nextRequest()
      const started = performance.now()
      const preload = rss ? ['--import', RSS_PRELOAD] : []
      const child = spawn(process.execPath, [...preload, ...args], { env: step.env, cwd: dir })
      let output = ''
      for (const stream of [child.stdout, child.stderr]) stream.on('data', (c) => (output += c))
      const watchdog = setTimeout(() => child.kill('SIGKILL'), WATCHDOG_MS)
      const [code, signal] = await once(child, 'close').finally(() => clearTimeout(watchdog))
      const requests = simulator.requests.slice(before)
      const failed = `node ${args[0]} exited with ${code ?? signal} after ${requests.length} requests`
      if (code !== 0 || requests.length === 0) throw new Error(`${failed}:\n${output}`)
      const rssKb = /^maxrss=(\d+)$/m.exec(output)?.[1]
      return {
        requests,
        firstRequestMs: (await arrived) - started,
        maxRssBytes: rssKb === undefined ? undefined : Number(rssKb) * 1024,
        outputs: Object.fromEntries(parseOutputFile(readFileSync(step.outputFile, 'utf8')))
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  return {
    close: () => simulator.close(),
    /** One run of the bundle, which must report the job completed. @param {RunOptions} [options] */
    runAction: async ({ inputs: extra, scenario, event, rss = false, bundle = BUNDLE } = {}) => {
      if (scenario) simulator.setScenario(scenario)
      /** @type {Record<string, string>} */
      const token = event ? { 'github-token': GITHUB_TOKEN } : {}
      // The shortest pace the action accepts; the bench's jobs end by the first check.
      const pace = { 'poll-interval': '1s', 'max-poll-interval': '1s' }
      const all = { ...INPUTS, ...pace, 'base-url': simulator.url, ...token, ...extra }
      const payload = join(ROOT, '__fixtures__', 'events', event?.payload ?? '')
      const env = event ? runnerEvent(event.name, payload, simulator.url) : {}
      const action = await run([bundle], all, env, rss)
      if (action.outputs.status !== 'completed') {
        throw new Error(`${bundle} reported status ${action.outputs.status ?? 'unset'}`)
      }
      return action
    },
    /** Bare `node -e` sending each round at once with fetch. @param {RecordedRequest[][]} plan @param {boolean} [rss] */
    runBare: (plan, rss = false) => {
      const sendable = plan.map((round) =>
        round.map(({ method, path, headers, body }) => {
          const sent = Object.entries(headers).filter(([name]) => !UNSENDABLE.has(name))
          const init = { method, headers: Object.fromEntries(sent), body: body || undefined }
          return { url: simulator.url + path, init }
        })
      )
      const script =
        'const rounds = JSON.parse(process.env.BENCH_ROUNDS);' +
        '(async () => { for (const round of rounds) await Promise.all(round.map(' +
        '({ url, init }) => fetch(url, init).then((res) => res.arrayBuffer()))) })()'
      return run(['-e', script], {}, { BENCH_ROUNDS: JSON.stringify(sendable) }, rss)
    }
  }
}
