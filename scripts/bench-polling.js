// @ts-check
// Polling for `npm run bench`: checks per job and how late the end is noticed, on the wait loop
// (`waitForJob` from src/clients/mintlify/poll.ts as it is) on a virtual clock, and on the schedule's model
// (`pollDelay` summed, as the tests do); jitter seeded per job, so runs, loop and model agree.
import { existsSync, readFileSync } from 'node:fs'
import { registerHooks } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
import { seededRandom } from '../simulator/random.js'

/** How long each status check takes on the virtual clock, as from a runner to the API. */
export const REQUEST_MS = 200
/** The jobs measured: one ending at every whole second from 1 to 10 minutes. */
export const JOBS = Array.from({ length: 9 * 60 + 1 }, (_, i) => 60_000 + i * 1000)

/** @typedef {{ polls: number, longest: number, lateMs: number, worstLateMs: number }} Figures */

/** Lets `import()` load src/: `./x.js` from a `.ts` file means `./x.ts`, compiled on the way in. */
const loadTypeScript = () =>
  registerHooks({
    resolve: (specifier, context, next) =>
      specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')
        ? next(`${specifier.slice(0, -3)}.ts`, context)
        : next(specifier, context),
    load: (url, context, next) => {
      if (!url.endsWith('.ts')) return next(url, context)
      const { outputText } = ts.transpileModule(readFileSync(fileURLToPath(url), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 }
      })
      return { format: 'module', source: outputText, shortCircuit: true }
    }
  })
let hooked = false

/** @typedef {{ polls: number, lateMs: number }} Waited one job */
/** @param {Waited[]} jobs @returns {Figures} */
function summarise(jobs) {
  const mean = (/** @type {number[]} */ values) => values.reduce((a, b) => a + b, 0) / jobs.length
  const polls = jobs.map((job) => job.polls)
  const late = jobs.map((job) => job.lateMs)
  const [longest, worstLateMs] = [Math.max(...polls), Math.max(...late)]
  return { polls: mean(polls), longest, lateMs: mean(late), worstLateMs }
}

/**
 * Waits for each of `JOBS` with `pace`, each check taking `REQUEST_MS` and seeing the job as it is
 * when it answers; with jitter or none. `root`: the repository whose src/ is measured.
 *
 * @param {string} root @param {import('../src/clients/mintlify/schedule.js').PollPace} pace @param {boolean} jitter
 * @returns {Promise<{ loop: Figures, model: Figures }>}
 */
export async function measurePolling(root, pace, jitter) {
  if (!hooked) hooked = Boolean(loadTypeScript())
  // The Mintlify side lives in src/clients/mintlify/; a baseline may have it in src/mintlify/ or src/.
  const source = (/** @type {string} */ file) => {
    const folders = [['src', 'clients', 'mintlify'], ['src', 'mintlify'], ['src']]
    const found = folders.map((folder) => join(root, ...folder, file)).find((f) => existsSync(f))
    return pathToFileURL(found ?? join(root, 'src', file)).href
  }
  /** @type {typeof import('../src/clients/mintlify/poll.js')} */
  const { waitForJob } = await import(source('poll.ts'))
  /** @type {typeof import('../src/clients/mintlify/schedule.js')} */
  const { pollDelay } = await import(source('schedule.ts'))
  const random = (/** @type {number} */ jobMs) => (jitter ? seededRandom(jobMs) : () => 0)
  const running = { id: 'job_bench', status: 'active' }
  const [loop, model] = /** @type {[Waited[], Waited[]]} */ ([[], []])
  for (const jobMs of JOBS) {
    let [time, polls] = [0, 0]
    const runtime = {
      now: () => time,
      sleep: (/** @type {number} */ ms) => Promise.resolve(void (time += ms)),
      random: random(jobMs),
      signal: new AbortController().signal,
      log: { info() {}, warning() {}, debug() {} }
    }
    const getJob = () => {
      polls += 1
      time += REQUEST_MS
      return Promise.resolve({ ...running, status: time >= jobMs ? 'completed' : 'active' })
    }
    const result = await waitForJob(running, getJob, { ...pace, deadline: 3_600_000 }, runtime)
    if (result.kind !== 'finished') throw new Error(`a ${jobMs} ms job was not seen to end`)
    loop.push({ polls, lateMs: time - jobMs })

    const draw = random(jobMs)
    let [at, planned] = [0, 0]
    while (at < jobMs) at += pollDelay(planned++, pace, draw) + REQUEST_MS
    model.push({ polls: planned, lateMs: at - jobMs })
  }
  return { loop: summarise(loop), model: summarise(model) }
}
