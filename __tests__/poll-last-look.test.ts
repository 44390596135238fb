// The wait uses the whole `timeout`, as properties on a virtual clock: the last look at the job is
// made at the deadline less a fixed share of the wait (a twentieth, at most 5 s), never earlier,
// whatever the reads before it do; and a job that ends before that look is seen completed, not
// reported as timed out.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { EPOCH, virtualRuntime, type VirtualRuntime } from '../__fixtures__/runtime.js'
import { ApiError, DeadlineError, type Failure } from '../src/base/errors.js'
import type { Job } from '../src/clients/mintlify/job.js'
import { waitForJob, type Schedule } from '../src/clients/mintlify/poll.js'

/**
 * The time kept before the deadline for the last look, as docs/inputs.md states it: a twentieth
 * of the wait, at most 5 s, in whole milliseconds. Written out here, not taken from the source,
 * so that a change to the rule fails these properties.
 */
const shareOf = (waitMs: number) => Math.ceil(Math.min(5_000, waitMs / 20))

const pace = fc.record({
  timeoutMs: fc.oneof(
    fc.integer({ min: 10_000, max: 60_000 }),
    fc.integer({ min: 10_000, max: 3_600_000 })
  ),
  initialMs: fc.integer({ min: 1_000, max: 60_000 }),
  growMs: fc.integer({ min: 0, max: 120_000 })
})

const scheduleOf = (p: { timeoutMs: number; initialMs: number; growMs: number }): Schedule => ({
  deadline: EPOCH + p.timeoutMs,
  initialMs: p.initialMs,
  maxMs: p.initialMs + p.growMs
})

/** One answer to a read: the job as it is when the answer comes, or a failure. */
type Read =
  | { readonly kind: 'ok'; readonly delayMs: number }
  | { readonly kind: 'fail'; readonly failure: Failure; readonly delayMs: number }

const failure: fc.Arbitrary<Failure> = fc.oneof(
  fc.constant<Failure>({ kind: 'unsent', permanent: false }),
  fc.constant<Failure>({ kind: 'lost' }),
  fc.constant<Failure>({ kind: 'invalid-response' }),
  fc.record({
    kind: fc.constant('http' as const),
    status: fc.constantFrom(408, 429, 500, 502, 503, 504),
    retryAfterMs: fc.option(fc.integer({ min: 0, max: 30_000 }), { nil: undefined })
  })
)

/** Most answers come quickly; some hang for up to a minute (cut short by the request's time). */
const delay = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 500 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 60_000 }) }
)

const read: fc.Arbitrary<Read> = fc.oneof(
  fc.record({ kind: fc.constant('ok' as const), delayMs: delay }),
  fc.record({ kind: fc.constant('fail' as const), failure, delayMs: delay })
)

/**
 * A job that is active until `endsAt`, then completed, read as `reads` say (then the last one
 * forever), each taking at most the time it was given. Records when each read started, and each
 * answer that showed the job.
 */
function job(rt: VirtualRuntime, endsAt: number, reads: readonly Read[]) {
  const starts: number[] = []
  const answered: { at: number; status: string }[] = []
  const getJob = async (timeoutMs: number): Promise<Job> => {
    starts.push(rt.now())
    if (starts.length > 100_000) throw new Error('runaway: the wait never stops')
    const next = reads[Math.min(starts.length - 1, reads.length - 1)]!
    rt.advance(Math.min(next.delayMs, timeoutMs))
    if (next.delayMs > timeoutMs) throw new ApiError('no answer in time', { kind: 'lost' })
    if (next.kind === 'fail') throw new ApiError(`failed: ${next.failure.kind}`, next.failure)
    const status = rt.now() >= endsAt ? 'completed' : 'active'
    answered.push({ at: rt.now(), status })
    return { id: 'job_1', status }
  }
  return { getJob, starts, answered }
}

describe('the wait looks at the job a last time at the deadline less its share (property)', () => {
  it('a job that ends before the last look is seen completed, on any pace', async () => {
    await fc.assert(
      fc.asyncProperty(
        pace,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        async (p, r, ends, answerShare) => {
          const rt = virtualRuntime(() => r)
          const s = scheduleOf(p)
          const lastLook = s.deadline - shareOf(p.timeoutMs)
          // The job ends at any time up to the last look; each answer takes less than the share.
          const endsAt = EPOCH + Math.floor(ends * (lastLook - EPOCH))
          const answerMs = Math.floor(answerShare * shareOf(p.timeoutMs))
          const { getJob, starts } = job(rt, endsAt, [{ kind: 'ok', delayMs: answerMs }])
          const result = await waitForJob({ id: 'job_1', status: 'active' }, getJob, s, rt)
          expect(result.kind).toBe('finished')
          expect(starts.every((at) => at <= lastLook)).toBe(true)
          expect(rt.now()).toBeLessThanOrEqual(s.deadline)
        }
      ),
      {
        numRuns: 300,
        // The cases that were reported: a 10 s timeout with 6 s between checks, the job ending at
        // 6.6 s; a 30 s timeout with the default pace, the job ending 3 s before the deadline.
        examples: [
          [{ timeoutMs: 10_000, initialMs: 6_000, growMs: 0 }, 0, 0.7, 0.5],
          [{ timeoutMs: 30_000, initialMs: 5_000, growMs: 10_000 }, 0, 0.9, 0.5]
        ]
      }
    )
  })

  it('whatever the reads do, a timeout comes after a look at or past the last look’s time', async () => {
    await fc.assert(
      fc.asyncProperty(
        pace,
        fc.array(read, { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (p, reads, r) => {
          const rt = virtualRuntime(() => r)
          const s = scheduleOf(p)
          const lastLook = s.deadline - shareOf(p.timeoutMs)
          const { getJob, starts, answered } = job(rt, Number.POSITIVE_INFINITY, reads)
          const outcome = await waitForJob({ id: 'job_1', status: 'active' }, getJob, s, rt).then(
            (result) => result.kind,
            (error: unknown) => error
          )
          // A Retry-After past the deadline ends the wait early, as an error that says so.
          if (outcome instanceof DeadlineError) return
          expect(outcome).toBe('timeout')
          const last = starts.at(-1) ?? Number.NEGATIVE_INFINITY
          expect(last).toBeGreaterThanOrEqual(lastLook)
          expect(last).toBeLessThan(s.deadline)
          expect(rt.now()).toBeLessThanOrEqual(s.deadline)
          expect(answered.every(({ status }) => status === 'active')).toBe(true)
        }
      ),
      { numRuns: 300 }
    )
  })

  it('whatever the reads do, an answer that saw the job completed ends the wait as finished', async () => {
    await fc.assert(
      fc.asyncProperty(
        pace,
        fc.array(read, { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (p, reads, r, ends) => {
          const rt = virtualRuntime(() => r)
          const s = scheduleOf(p)
          const endsAt = EPOCH + Math.floor(ends * p.timeoutMs)
          const { getJob, answered } = job(rt, endsAt, reads)
          const outcome = await waitForJob({ id: 'job_1', status: 'active' }, getJob, s, rt).then(
            (result) => result.kind,
            () => 'error'
          )
          const seen = answered.some(({ status }) => status === 'completed')
          expect(outcome === 'finished').toBe(seen)
        }
      ),
      { numRuns: 300 }
    )
  })
})
