// @ts-check
/**
 * What asking for a preview adds to a run: the Mintlify requests (the preview request and its
 * status reads) and the time, on a pull request run whose docs pull request is open, with
 * `preview: auto` against `preview: off` on the same bundle, in turns. `npm run bench` adds these
 * rows; `node scripts/bench-preview.js [--runs N]` prints them alone (on a bundle of the sources
 * as they are now, since dist/ may predate the preview).
 */
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { pathToFileURL } from 'node:url'
import { freshBundle } from './bundle.js'
import { isGitHub, startBench } from './bench-runs.js'

/** How long the simulator's preview takes to build: a short build, so the run's own cost shows. */
export const BUILD_MS = 1500

/** The agent's docs pull request, open, on the branch the simulator's jobs name. */
const scenario = (/** @type {number} */ job) => ({
  jobDurationMs: 0,
  preview: { buildMs: BUILD_MS, rateLimit: { limit: 1_000 } },
  github: {
    files: null,
    pulls: {
      [`acme/docs#${100 + job}`]: { user: 'mintlify[bot]', head: { ref: `mintlify/agent-${job}` } }
    }
  }
})

/**
 * @param {{ runAction: Awaited<ReturnType<typeof startBench>>['runAction'], runs: number, progress: (stage: string) => void }} bench
 * @param {string} bundle
 */
export async function previewCost(bench, bundle) {
  bench.progress(`timing ${bench.runs} runs with and without a preview`)
  const event = { name: 'pull_request', payload: 'pull_request-opened.json' }
  /** @type {{ auto: number[], off: number[] }} */
  const ms = { auto: [], off: [] }
  /** @type {string[][]} */
  const added = []
  let job = 0
  for (let i = 0; i < bench.runs; i++) {
    for (const preview of i % 2 ? ['off', 'auto'] : ['auto', 'off']) {
      job += 1
      const started = performance.now()
      const run = await bench.runAction({
        inputs: { preview, 'reuse-job': 'false' },
        scenario: scenario(job),
        event,
        bundle
      })
      ms[/** @type {'auto' | 'off'} */ (preview)].push(performance.now() - started)
      if (preview === 'auto') {
        added.push(
          run.requests.filter((r) => !isGitHub(r) && r.path.startsWith('/v1/')).map((r) => r.method)
        )
      }
    }
  }
  const median = (/** @type {number[]} */ v) =>
    [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? NaN
  bench.progress(`preview requests per run: ${added.map((a) => a.join('+')).join(', ')}`)
  const posts = Math.max(...added.map((a) => a.filter((m) => m === 'POST').length))
  const reads = added.map((a) => a.filter((m) => m === 'GET').length)
  const extra = median(ms.auto) - median(ms.off)
  return [
    {
      what: `Preview (\`preview: auto\`, a ${BUILD_MS / 1000} s build, \`poll-interval: 1s\`): Mintlify requests added per run`,
      measured: `${posts} POST + ${Math.min(...reads)}–${Math.max(...reads)} GET`,
      goal: '1 POST',
      met: posts === 1
    },
    {
      what: `… time added, median of ${bench.runs} (the build's ${BUILD_MS / 1000} s included)`,
      measured: `${(extra / 1000).toFixed(2)} s (${(median(ms.auto) / 1000).toFixed(2)} s vs ${(median(ms.off) / 1000).toFixed(2)} s)`,
      goal: '',
      met: undefined
    }
  ]
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const options = { runs: { type: /** @type {const} */ ('string'), default: '5' } }
  const runs = Number(parseArgs({ args: process.argv.slice(2), options }).values.runs)
  // BENCH_BUNDLE: a bundle already built (the end-to-end tests' cache), else one built now.
  const bundle = process.env.BENCH_BUNDLE ?? join(freshBundle(), 'index.js')
  const started = await startBench()
  try {
    const progress = (/** @type {string} */ stage) => console.error(`bench: ${stage}…`)
    for (const row of await previewCost({ ...started, runs, progress }, bundle)) {
      console.log(
        `| ${row.what} | ${row.goal} | ${row.measured} | ${row.met === undefined ? '' : row.met ? '✅' : '❌'} |`
      )
    }
  } finally {
    await started.close()
  }
}
