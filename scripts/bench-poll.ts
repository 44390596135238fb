// The polling half of `npm run bench`: runs the action's own wait loop (`waitForJob`, which paces
// itself with `pollDelay`) on a virtual clock, so an hour-long job is simulated in microseconds.
// scripts/bench.js bundles this file with ncc and imports the bundle.
import type { Job } from '../src/job.js'
import { waitForJob } from '../src/poll.js'
import type { Runtime } from '../src/runtime.js'
import { POLL_GROWTH, POLL_JITTER, pollDelay, type PollPace } from '../src/schedule.js'
import { seededRandom } from '../simulator/random.js'

export { POLL_GROWTH, POLL_JITTER }

/** The pace of `poll-interval` and `max-poll-interval` as action.yml sets them by default. */
export const DEFAULT_PACE: PollPace = Object.freeze({ initialMs: 5_000, maxMs: 30_000 })

export interface PollingCase {
  /** Shortest job simulated; each sample adds a random part of `phaseWindowMs`. */
  readonly jobMs: number
  readonly pace: PollPace
  /** Whether waits get the action's jitter (a seeded stand-in for `Math.random`) or none. */
  readonly jitter: boolean
  readonly samples: number
  readonly seed: number
  /** Job lengths are spread uniformly over [jobMs, jobMs + phaseWindowMs). */
  readonly phaseWindowMs: number
  /** The step's `timeout`; long enough that no sample reaches it. */
  readonly timeoutMs: number
}

export interface PollingSample {
  readonly jobMs: number
  /** Status checks after the create, the one that saw the end included. */
  readonly polls: number
  /** From the job's end to the poll that saw it. */
  readonly noticeMs: number
}

/**
 * Simulates `samples` jobs of one case. The same seed gives the same job lengths whatever the
 * pace, so cases that differ only in pace compare job by job.
 */
export async function simulatePolling(polling: PollingCase): Promise<PollingSample[]> {
  const lengths = seededRandom(polling.seed)
  const jitter = polling.jitter ? seededRandom(polling.seed + 1) : () => 0
  const samples: PollingSample[] = []
  for (let i = 0; i < polling.samples; i++) {
    const jobMs = polling.jobMs + lengths() * polling.phaseWindowMs
    samples.push(await simulateJob(jobMs, polling.pace, jitter, polling.timeoutMs))
  }
  return samples
}

/** One job that ends `jobMs` after it was created, waited for as the action waits. */
export async function simulateJob(
  jobMs: number,
  pace: PollPace,
  random: () => number,
  timeoutMs: number
): Promise<PollingSample> {
  let time = 0
  let polls = 0
  const controller = new AbortController()
  const quiet = () => undefined
  const runtime: Runtime = {
    now: () => time,
    sleep: (ms) => {
      time += ms
      return Promise.resolve()
    },
    random,
    signal: controller.signal,
    log: { info: quiet, warning: quiet, debug: quiet }
  }
  const job = (status: string): Job => ({ id: 'job_bench', status })
  const getJob = () => {
    polls++
    return Promise.resolve(job(time >= jobMs ? 'completed' : 'active'))
  }
  const result = await waitForJob(job('active'), getJob, { ...pace, deadline: timeoutMs }, runtime)
  if (result.kind !== 'finished') {
    throw new Error(`A ${jobMs} ms job reached the ${timeoutMs} ms timeout; raise the timeout.`)
  }
  return { jobMs, polls, noticeMs: time - jobMs }
}

/** The first `count` waits between polls without jitter: the schedule as users see it. */
export function waits(pace: PollPace, count: number): number[] {
  return Array.from({ length: count }, (_, polls) => pollDelay(polls, pace, () => 0))
}
