import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  ApiError,
  CancelledError,
  DeadlineError,
  RateLimitError,
  UncertainError,
  type Failure
} from '../src/base/errors.js'
import type { Job } from '../src/clients/mintlify/job.js'
import { CREATE } from '../src/clients/mintlify/api.js'
import { MAX_ATTEMPTS } from '../src/clients/mintlify/policy.js'
import { pollDelay } from '../src/clients/mintlify/schedule.js'
import {
  FINAL_CHECK_MS,
  PROGRESS_EVERY_MS,
  REQUEST_TIMEOUT_MS,
  send,
  STALE_GRACE_MS,
  waitForJob,
  WARN_AFTER_FAILURES,
  type Call
} from '../src/clients/mintlify/poll.js'
import { EPOCH, virtualRuntime, type VirtualRuntime } from '../__fixtures__/runtime.js'

const MINUTE = 60_000
const active: Job = { id: 'job_1', status: 'active' }

function schedule(timeoutMs = 30 * MINUTE, initialMs = 5000, maxMs = 30_000) {
  return { deadline: EPOCH + timeoutMs, initialMs, maxMs }
}

/**
 * A job that is active until `durationMs` after the epoch, then `finalStatus`. Each check takes
 * `requestMs` and sees the job as it is when it answers.
 */
function jobThatEndsAfter(
  rt: VirtualRuntime,
  durationMs: number,
  finalStatus = 'completed',
  requestMs = 0
) {
  const calls: number[] = []
  const getJob = async (): Promise<Job> => {
    calls.push(rt.now())
    rt.advance(requestMs)
    return rt.now() - EPOCH >= durationMs ? { id: 'job_1', status: finalStatus } : active
  }
  return { getJob, calls }
}

const failure = (f: Failure) => new ApiError(`failure ${JSON.stringify(f)}`, f)
const createJob = (create: Call<Job>, ...rest: [ReturnType<typeof schedule>, VirtualRuntime]) =>
  send(CREATE, create, ...rest)

describe('waitForJob', () => {
  it('polls on the growing schedule until the job completes', async () => {
    const rt = virtualRuntime(() => 0)
    const { getJob, calls } = jobThatEndsAfter(rt, 40_000)
    const result = await waitForJob(active, getJob, schedule(), rt)
    expect(result).toEqual({
      kind: 'finished',
      job: { id: 'job_1', status: 'completed' },
      phase: 'completed'
    })
    expect(rt.sleeps).toEqual([5000, 7500, 11_250, 16_875])
    expect(calls).toHaveLength(4)
  })

  it.each(['failed', 'archived'] as const)('ends on %s', async (status) => {
    const rt = virtualRuntime()
    const { getJob } = jobThatEndsAfter(rt, 10_000, status)
    const result = await waitForJob(active, getJob, schedule(), rt)
    expect(result).toMatchObject({ kind: 'finished', phase: status })
  })

  it('does not poll at all when the created job is already finished', async () => {
    const rt = virtualRuntime()
    const { getJob, calls } = jobThatEndsAfter(rt, 0)
    const result = await waitForJob({ id: 'job_1', status: 'completed' }, getJob, schedule(), rt)
    expect(result.kind).toBe('finished')
    expect(calls).toHaveLength(0)
  })

  it('logs each status change once and otherwise at most one progress line a minute', async () => {
    const rt = virtualRuntime()
    const { getJob } = jobThatEndsAfter(rt, 10 * MINUTE)
    await waitForJob(active, getJob, schedule(), rt)
    const infos = rt.lines.filter((l) => l.level === 'info').map((l) => l.message)
    expect(infos.filter((m) => m.startsWith('Job status: completed'))).toHaveLength(1)
    const progress = infos.filter((m) => m.startsWith('Still active'))
    expect(progress.length).toBeGreaterThanOrEqual(5)
    expect(progress.length).toBeLessThanOrEqual((10 * MINUTE) / PROGRESS_EVERY_MS)
    expect(infos).toHaveLength(progress.length + 1)
  })

  it('reports an unknown status once and keeps waiting instead of calling it success', async () => {
    const rt = virtualRuntime()
    const statuses = ['queued', 'queued', 'thinking', 'queued', 'completed']
    const getJob = async (): Promise<Job> => ({ id: 'job_1', status: statuses.shift() })
    const result = await waitForJob(active, getJob, schedule(), rt)
    expect(result).toMatchObject({ kind: 'finished', phase: 'completed' })
    const warnings = rt.lines.filter((l) => l.level === 'warning').map((l) => l.message)
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toContain('"queued"')
    expect(warnings[1]).toContain('"thinking"')
  })

  it('times out at the deadline with the last job it saw', async () => {
    const rt = virtualRuntime()
    const { getJob } = jobThatEndsAfter(rt, Number.POSITIVE_INFINITY)
    const result = await waitForJob(active, getJob, schedule(2 * MINUTE), rt)
    expect(result).toEqual({ kind: 'timeout', job: active })
    // The last look at the job comes just before the deadline, not after it.
    expect(rt.now()).toBe(EPOCH + 2 * MINUTE - FINAL_CHECK_MS)
  })

  it('takes one last look before the deadline, so a job that just ended is not a timeout', async () => {
    const rt = virtualRuntime(() => 0)
    // Checks at 5s, 12.5s, 23.75s, 40.6s, 65.9s, 95.9s; the job ends at 100s; timeout 2 min.
    const { getJob, calls } = jobThatEndsAfter(rt, 100_000)
    const result = await waitForJob(active, getJob, schedule(2 * MINUTE), rt)
    expect(result).toMatchObject({ kind: 'finished', phase: 'completed' })
    expect(calls.at(-1)).toBe(EPOCH + 2 * MINUTE - FINAL_CHECK_MS)
  })

  it('checks the job even when poll-interval is longer than the timeout', async () => {
    const rt = virtualRuntime(() => 0)
    const { getJob, calls } = jobThatEndsAfter(rt, 30_000)
    const result = await waitForJob(active, getJob, schedule(MINUTE, 10 * MINUTE, 10 * MINUTE), rt)
    expect(result).toMatchObject({ kind: 'finished', phase: 'completed' })
    // One look, at the deadline less a twentieth of the minute's wait.
    expect(calls).toEqual([EPOCH + MINUTE - 3000])
  })

  it('after a message, waits out a terminal status that may date from before it', async () => {
    const rt = virtualRuntime(() => 0)
    const stale: Job = { id: 'job_1', status: 'completed', prLink: 'https://github.com/a/b/pull/1' }
    const getJob = async (): Promise<Job> => stale
    const result = await waitForJob(stale, getJob, schedule(), rt, { afterMessage: true })
    expect(result).toMatchObject({ kind: 'finished', phase: 'completed' })
    expect(rt.now() - EPOCH).toBeGreaterThanOrEqual(STALE_GRACE_MS)
    expect(rt.lines.map((l) => l.message)).toContainEqual(
      expect.stringMatching(/shown completed for 1m since the message.*taking that as its status/)
    )
  })

  it('after a message, believes a terminal status once the job was seen working', async () => {
    const rt = virtualRuntime(() => 0)
    const answers: Job[] = [{ status: 'completed' }, { status: 'active' }, { status: 'completed' }]
    const getJob = async (): Promise<Job> => answers.shift() ?? { status: 'completed' }
    const old: Job = { id: 'job_1', status: 'completed' }
    const result = await waitForJob(old, getJob, schedule(), rt, { afterMessage: true })
    expect(result).toMatchObject({ kind: 'finished', phase: 'completed' })
    expect(answers).toHaveLength(0)
    expect(rt.now() - EPOCH).toBeLessThan(STALE_GRACE_MS)
  })

  it('keeps what it knows when a later answer leaves fields out', async () => {
    const rt = virtualRuntime()
    const known: Job = { id: 'job_1', status: 'active', model: 'opus', prLink: null }
    const answers: Job[] = [
      { status: 'active', prLink: 'https://github.com/a/b/pull/1' },
      { status: 'completed', model: null }
    ]
    const seen: Job[] = []
    const getJob = async (): Promise<Job> => answers.shift() ?? {}
    const result = await waitForJob(known, getJob, schedule(), rt, {
      onJob: (job) => seen.push(job)
    })
    expect(result.job).toEqual({
      id: 'job_1',
      status: 'completed',
      model: 'opus',
      prLink: 'https://github.com/a/b/pull/1'
    })
    expect(seen.every((job) => job.id === 'job_1')).toBe(true)
  })

  it('gives each request at most its own timeout, and no more than the time left', async () => {
    const rt = virtualRuntime()
    const timeouts: number[] = []
    const getJob = async (timeoutMs: number): Promise<Job> => {
      timeouts.push(timeoutMs)
      return active
    }
    await waitForJob(active, getJob, schedule(MINUTE + 10_000, 20_000, 30_000), rt)
    expect(Math.max(...timeouts)).toBe(REQUEST_TIMEOUT_MS)
    expect(timeouts.at(-1)).toBeLessThan(REQUEST_TIMEOUT_MS)
  })

  it('retries transient failures and reports a run of them as one warning', async () => {
    const rt = virtualRuntime()
    const faults: Failure[] = [
      { kind: 'http', status: 500 },
      { kind: 'http', status: 502 },
      { kind: 'lost' },
      { kind: 'invalid-response' },
      { kind: 'http', status: 503, retryAfterMs: 2000 }
    ]
    const onJob: Job[] = []
    const getJob = async (): Promise<Job> => {
      const next = faults.shift()
      if (next) throw failure(next)
      return { id: 'job_1', status: 'completed' }
    }
    const result = await waitForJob(active, getJob, schedule(), rt, {
      onJob: (job) => onJob.push(job)
    })
    expect(result.kind).toBe('finished')
    expect(onJob).toEqual([{ id: 'job_1', status: 'completed' }])
    const failureLines = rt.lines.filter((l) => l.message.startsWith('Checking the job failed'))
    expect(failureLines.map((l) => l.level)).toEqual(['info', 'debug', 'warning', 'debug', 'debug'])
    expect(WARN_AFTER_FAILURES).toBe(3)
    // The wait after the 503 honours its Retry-After.
    expect(rt.sleeps.at(-1)).toBeGreaterThanOrEqual(2000)
  })

  it.each([401, 403, 404, 307, 400, 501])('stops at once on HTTP %d', async (status) => {
    const rt = virtualRuntime()
    let calls = 0
    const getJob = async (): Promise<Job> => {
      calls++
      throw failure({ kind: 'http', status })
    }
    await expect(waitForJob(active, getJob, schedule(), rt)).rejects.toBeInstanceOf(ApiError)
    expect(calls).toBe(1)
  })

  it('fails at once when Retry-After asks for longer than the time left', async () => {
    const rt = virtualRuntime()
    const getJob = async (): Promise<Job> => {
      throw failure({ kind: 'http', status: 429, retryAfterMs: 10 * MINUTE })
    }
    const error = await waitForJob(active, getJob, schedule(5 * MINUTE), rt).catch(
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(DeadlineError)
    expect((error as Error).message).toMatch(/asks to wait 10m, longer than the/)
    // A re-run would start a second job while this one runs: no invitation to one.
    expect((error as Error).message).not.toContain('Try again')
    expect(rt.now() - EPOCH).toBeLessThan(MINUTE)
  })

  it('keeps retrying failures until the deadline, then times out', async () => {
    const rt = virtualRuntime()
    const getJob = async (): Promise<Job> => {
      throw failure({ kind: 'http', status: 502 })
    }
    const result = await waitForJob(active, getJob, schedule(3 * MINUTE), rt)
    expect(result).toEqual({ kind: 'timeout', job: active })
    expect(rt.now()).toBeGreaterThanOrEqual(EPOCH + 3 * MINUTE - FINAL_CHECK_MS)
    expect(rt.now()).toBeLessThanOrEqual(EPOCH + 3 * MINUTE)
    expect(rt.lines.at(-1)?.message).toMatch(/^The last check before the timeout failed/)
  })

  it('stops with the cancellation reason when the run is cancelled', async () => {
    const rt = virtualRuntime()
    let polls = 0
    const getJob = async (): Promise<Job> => {
      if (++polls === 3) rt.controller.abort(new CancelledError('cancelled by test'))
      return active
    }
    await expect(waitForJob(active, getJob, schedule(), rt)).rejects.toThrow('cancelled by test')
    expect(polls).toBe(3)
  })

  it('never sleeps past the deadline and notices the end within max-poll-interval (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 90 * MINUTE }),
        fc.integer({ min: 100, max: 20_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: MINUTE, max: 60 * MINUTE }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (durationMs, initialMs, extra, timeoutMs, r) => {
          const rt = virtualRuntime(() => r)
          const s = schedule(timeoutMs, initialMs, initialMs + extra)
          const { getJob } = jobThatEndsAfter(rt, durationMs)
          const result = await waitForJob(active, getJob, s, rt)
          const slept = rt.sleeps.reduce((a, b) => a + b, 0)
          if (slept > timeoutMs) return false
          if (rt.sleeps.some((ms) => ms > s.maxMs)) return false
          if (result.kind === 'finished') return rt.now() - EPOCH - durationMs <= s.maxMs
          // A timeout means the last look, just before the deadline, still saw the job running.
          return durationMs > rt.now() - EPOCH && s.deadline - rt.now() <= FINAL_CHECK_MS
        }
      ),
      { numRuns: 200 }
    )
  })
  it('waits as the schedule says after each answer, and notices the end within max-poll-interval and one check (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 20 * MINUTE }),
        fc.integer({ min: 100, max: 20_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (durationMs, initialMs, extra, requestMs, r) => {
          const rt = virtualRuntime(() => r)
          const s = schedule(60 * MINUTE, initialMs, initialMs + extra)
          const { getJob, calls } = jobThatEndsAfter(rt, durationMs, 'completed', requestMs)
          const result = await waitForJob(active, getJob, s, rt)
          const planned = rt.sleeps.map((_, polls) => Math.round(pollDelay(polls, s, () => r)))
          const late = rt.now() - EPOCH - durationMs
          return (
            result.kind === 'finished' &&
            rt.sleeps.every((ms, i) => ms === planned[i]) &&
            calls.length === rt.sleeps.length &&
            late >= 0 &&
            late <= s.maxMs + requestMs
          )
        }
      ),
      { numRuns: 200 }
    )
  })
})

describe('createJob', () => {
  const created: Job = { id: 'job_1', status: 'active' }

  function creates(...outcomes: (Failure | 'ok')[]) {
    let calls = 0
    const create = async (): Promise<Job> => {
      const next = outcomes[calls++] ?? 'ok'
      if (next === 'ok') return created
      throw failure(next)
    }
    return { create, calls: () => calls }
  }

  it('creates the job with one request when all is well', async () => {
    const rt = virtualRuntime()
    const { create, calls } = creates('ok')
    await expect(createJob(create, schedule(), rt)).resolves.toEqual(created)
    expect(calls()).toBe(1)
  })

  it('retries a connection that never opened', async () => {
    const rt = virtualRuntime()
    const never: Failure = { kind: 'unsent', permanent: false }
    const { create, calls } = creates(never, never, 'ok')
    await expect(createJob(create, schedule(), rt)).resolves.toEqual(created)
    expect(calls()).toBe(3)
    expect(rt.lines[0]).toMatchObject({ level: 'warning' })
    expect(rt.lines[0]?.message).toContain('No job was created; trying again in')
  })

  it.each<[string, Failure]>([
    ['503 with Retry-After', { kind: 'http', status: 503, retryAfterMs: 1000 }],
    ['500', { kind: 'http', status: 500 }],
    ['504', { kind: 'http', status: 504 }],
    ['503 without Retry-After', { kind: 'http', status: 503 }],
    ['a connection lost after sending', { kind: 'lost' }],
    ['a 201 whose body is not a job', { kind: 'invalid-response' }]
  ])('never sends a second create after %s, and says the job may exist', async (_, f) => {
    const rt = virtualRuntime()
    const { create, calls } = creates(f, 'ok')
    const error = await createJob(create, schedule(), rt).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UncertainError)
    expect((error as Error).message).toMatch(
      /not sent again.*Check the Mintlify dashboard \(https:\/\/app\.mintlify\.com\) for a job that may exist/
    )
    expect(calls()).toBe(1)
    expect(rt.sleeps).toEqual([])
  })

  it('waits out a 429 for as long as Retry-After asks, then creates the job with one more request', async () => {
    const rt = virtualRuntime()
    const { create, calls } = creates({ kind: 'http', status: 429, retryAfterMs: 12_000 }, 'ok')
    await expect(createJob(create, schedule(), rt)).resolves.toEqual(created)
    expect(calls()).toBe(2)
    expect(rt.sleeps).toEqual([12_000])
    expect(rt.lines[0]?.message).toContain('No job was created; trying again in 12s')
  })

  it('waits out a 429 without Retry-After on the backoff', async () => {
    const rt = virtualRuntime()
    const { create, calls } = creates({ kind: 'http', status: 429 }, { kind: 'http', status: 429 })
    await expect(createJob(create, schedule(), rt)).resolves.toEqual(created)
    expect(calls()).toBe(3)
    // Full jitter at 0.5 of 5 s, then of 10 s.
    expect(rt.sleeps).toEqual([2500, 5000])
  })

  it.each([400, 401, 403, 404])('fails on HTTP %d without retrying', async (status) => {
    const rt = virtualRuntime()
    const { create, calls } = creates({ kind: 'http', status }, 'ok')
    await expect(createJob(create, schedule(), rt)).rejects.toBeInstanceOf(ApiError)
    expect(calls()).toBe(1)
  })

  it('a 429 whose wait outlasts the timeout stops at once, says nothing was created and when to try again', async () => {
    const rt = virtualRuntime()
    const { create, calls } = creates(
      { kind: 'http', status: 429, retryAfterMs: 40 * MINUTE },
      'ok'
    )
    const error = await createJob(create, schedule(30 * MINUTE), rt).catch((e: unknown) => e)
    // Not a timeout of a job: nothing was created.
    expect(error).toBeInstanceOf(RateLimitError)
    expect((error as Error).message).toMatch(
      /asks to wait 40m, longer than the 30m left .* No job was created: the platform refused the request\. Try again after 2026-11-22T00:40:00Z\.$/
    )
    expect((error as Error).message).not.toMatch(/may exist|dashboard/)
    expect(calls()).toBe(1)
    expect(rt.sleeps).toEqual([])
  })

  it(`gives up after ${MAX_ATTEMPTS} requests that the rate limit refused, saying when to try again`, async () => {
    const rt = virtualRuntime()
    const limited: Failure = { kind: 'http', status: 429, retryAfterMs: 1000 }
    const { create, calls } = creates(...Array<Failure>(20).fill(limited))
    const error = await createJob(create, schedule(), rt).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RateLimitError)
    expect((error as Error).message).toMatch(
      /It was refused 6 times\. No job was created: the platform refused the request\. Try again after 2026-11-22T00:01:03Z\.$/
    )
    expect(calls()).toBe(MAX_ATTEMPTS)
    // The last wait (15 s, the capped backoff at 0.5) is the one the time to try again ends.
    expect(rt.sleeps).toEqual([2500, 5000, 10_000, 15_000, 15_000])
  })

  it(`gives up after ${MAX_ATTEMPTS} attempts when the host cannot be reached`, async () => {
    const rt = virtualRuntime()
    const never: Failure = { kind: 'unsent', permanent: false }
    const { create, calls } = creates(...Array<Failure>(20).fill(never))
    await expect(createJob(create, schedule(), rt)).rejects.toThrow(/gave up after 6 attempts/)
    expect(calls()).toBe(MAX_ATTEMPTS)
  })

  it('stops before creating when the run is already cancelled', async () => {
    const rt = virtualRuntime()
    rt.controller.abort(new CancelledError('cancelled'))
    const { create, calls } = creates('ok')
    await expect(createJob(create, schedule(), rt)).rejects.toBeInstanceOf(CancelledError)
    expect(calls()).toBe(0)
  })
})
