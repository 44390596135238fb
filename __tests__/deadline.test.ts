// One deadline for everything, as properties over generated faults and delays on a virtual clock:
// whatever the API answers and however slowly, every loop that sends a request settles by the
// step's deadline, sends nothing at or past it, and the whole run ends within `timeout` plus
// the last writes' budget, keeping the id of a job it knows of.
import { beforeEach, describe, expect, it, jest } from '@jest/globals'
import fc from 'fast-check'
import * as core from '../__fixtures__/core.js'
import { EPOCH, virtualRuntime } from '../__fixtures__/runtime.js'
import { ApiError, DeadlineError, type Failure } from '../src/base/errors.js'
import { budgetsFor } from '../src/clients/github/policy.js'
import { withinTime } from '../src/base/runtime.js'
import { lastWindow, phaseEnd } from '../src/run/step.js'
import { POLL } from '../src/clients/mintlify/api.js'
import type { Job } from '../src/clients/mintlify/job.js'
import { send, waitForJob, type Schedule } from '../src/clients/mintlify/poll.js'
import type { Fetch } from '../src/clients/mintlify/transport.js'

jest.unstable_mockModule('@actions/core', () => core)
const { run } = await import('../src/main.js')

/** One answer of the API: a job, or a failure, after `delayMs` on the virtual clock. */
type Fault =
  | { readonly kind: 'ok'; readonly status: string; readonly delayMs: number }
  | { readonly kind: 'fail'; readonly failure: Failure; readonly delayMs: number }

const failure: fc.Arbitrary<Failure> = fc.oneof(
  fc.record({ kind: fc.constant('unsent' as const), permanent: fc.constant(false) }),
  fc.record({ kind: fc.constant('lost' as const) }),
  fc.record({ kind: fc.constant('invalid-response' as const) }),
  fc.record({
    kind: fc.constant('http' as const),
    status: fc.constantFrom(408, 429, 500, 502, 503, 504),
    retryAfterMs: fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: undefined })
  })
)

const delay = fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 60_000 }))

const fault: fc.Arbitrary<Fault> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('ok' as const),
      status: fc.constant('active'),
      delayMs: delay
    })
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('fail' as const), failure, delayMs: delay })
  }
)

/** Faults, then the last one forever: a sick API stays sick. */
const faults = fc.array(fault, { minLength: 1, maxLength: 30 })

const pace = fc.record({
  timeoutMs: fc.integer({ min: 10_000, max: 600_000 }),
  initialMs: fc.integer({ min: 1_000, max: 10_000 }),
  growMs: fc.integer({ min: 0, max: 30_000 })
})

/** More calls than any bounded loop makes: past this, the loop is taken to never end. */
const RUNAWAY = 100_000

/**
 * A call on the virtual clock that answers as `faults` say, taking at most the time it was
 * given (the transport's own timeout), and records when each call started.
 */
function faulty(list: readonly Fault[], rt: ReturnType<typeof virtualRuntime>) {
  const starts: number[] = []
  const call = async (timeoutMs: number): Promise<Job> => {
    starts.push(rt.now())
    if (starts.length > RUNAWAY) throw new Error('runaway: the loop never stops')
    const next = list[Math.min(starts.length - 1, list.length - 1)]!
    rt.advance(Math.min(next.delayMs, timeoutMs))
    if (next.delayMs > timeoutMs) throw new ApiError('no answer in time', { kind: 'lost' })
    if (next.kind === 'ok') return { id: 'job_1', status: next.status }
    throw new ApiError(`failed: ${next.failure.kind}`, next.failure)
  }
  return { call, starts }
}

/** The schedule of a step whose timeout and pace were generated. */
const scheduleOf = (p: { timeoutMs: number; initialMs: number; growMs: number }): Schedule => ({
  deadline: EPOCH + p.timeoutMs,
  initialMs: p.initialMs,
  maxMs: p.initialMs + p.growMs
})

/** A loop ended by the deadline, started no request at or past it, and sent no stream of them. */
function expectWithinDeadline(
  endedAt: number,
  starts: readonly number[],
  p: { timeoutMs: number; initialMs: number; growMs: number }
): void {
  const { deadline } = scheduleOf(p)
  expect(endedAt).toBeLessThanOrEqual(deadline)
  expect(starts.every((at) => at < deadline)).toBe(true)
  // At most one request for each tenth of the first interval (in whole milliseconds, as waited).
  expect(starts.length).toBeLessThanOrEqual(p.timeoutMs / Math.round(p.initialMs / 10) + 2)
}

describe('every loop that sends a request ends by the deadline (property)', () => {
  it('a read of a job, retried through any faults, stops by the deadline', async () => {
    await fc.assert(
      fc.asyncProperty(
        faults,
        pace,
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (list, p, r) => {
          const rt = virtualRuntime(() => r)
          const schedule = scheduleOf(p)
          const { call, starts } = faulty(list, rt)
          const outcome = await send(POLL, (ms) => call(ms), schedule, rt).then(
            (job) => job,
            (error: unknown) => error
          )
          expect(
            outcome instanceof ApiError ||
              outcome instanceof DeadlineError ||
              'id' in (outcome as Job)
          ).toBe(true)
          expectWithinDeadline(rt.now(), starts, p)
        }
      ),
      {
        numRuns: 300,
        // Instant failures and a jitter of nothing: the floor, rounded as it is waited, paces them.
        examples: [
          [
            [{ kind: 'fail', failure: { kind: 'lost' }, delayMs: 0 }],
            { timeoutMs: 45_701, initialMs: 1_003, growMs: 0 },
            0
          ]
        ]
      }
    )
  })

  it('waiting for a job that never ends, through any faults, ends by the deadline', async () => {
    await fc.assert(
      fc.asyncProperty(
        faults,
        pace,
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (list, p, r) => {
          const rt = virtualRuntime(() => r)
          const schedule = scheduleOf(p)
          const { call, starts } = faulty(list, rt)
          const outcome = await waitForJob(
            { id: 'job_1', status: 'active' },
            (ms) => call(ms),
            schedule,
            rt
          ).then(
            (result) => result.kind,
            (error: unknown) => error
          )
          expect(
            outcome === 'timeout' || outcome instanceof ApiError || outcome instanceof DeadlineError
          ).toBe(true)
          expectWithinDeadline(rt.now(), starts, p)
        }
      ),
      { numRuns: 300 }
    )
  })
})

describe('a GitHub call is made only while its budget lasts (property)', () => {
  it('with no time left nothing is called: it fails at once as a call cut short', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: -3_600_000, max: 0 }), fc.integer({ min: 1, max: 3_600_000 })),
        fc.boolean(),
        async (left, cancelled) => {
          const parent = new AbortController()
          if (cancelled) parent.abort()
          const calls: boolean[] = []
          const within = withinTime(() => left, parent.signal)
          const outcome = await within(async (signal) => {
            calls.push(signal.aborted)
            return 'answered'
          }).catch(() => 'cut short')
          const live = left > 0 && !cancelled
          // A call is made with a live signal, or not at all.
          expect(calls).toEqual(live ? [false] : [])
          expect(outcome).toBe(live ? 'answered' : 'cut short')
        }
      )
    )
  })
})

describe('a run ends within its timeout plus the last writes, whatever the API does (property)', () => {
  beforeEach(() => core.reset())

  /** How a run works with a job: starts one, sends it a message, or attaches to it. */
  const path = fc.constantFrom('create', 'follow-up', 'attach')

  it('on every path, and a job it knows of is reported with its id', async () => {
    await fc.assert(
      fc.asyncProperty(path, faults, pace, async (how, list, p) => {
        core.reset()
        Object.assign(core.inputs, {
          prompt: how === 'attach' ? '' : 'Update the docs',
          'project-id': 'proj_1',
          'api-key': 'mint_deadline_key',
          'job-id': how === 'create' ? '' : 'job_known',
          timeout: `${Math.ceil(p.timeoutMs / 1000)}s`,
          'poll-interval': `${Math.ceil(p.initialMs / 1000)}s`,
          'max-poll-interval': `${Math.ceil((p.initialMs + p.growMs) / 1000)}s`
        })
        const timeoutMs = Math.ceil(p.timeoutMs / 1000) * 1000
        let time = EPOCH
        const deadline = EPOCH + timeoutMs
        let requests = 0
        let late = 0
        // Each answer as the list says; a POST answers as the first fault does, then reads
        // go on through the list. The transport's timeout cuts a slow answer short.
        const fetch: Fetch = async (_url, init, sent) => {
          requests++
          if (requests > RUNAWAY) throw new Error('runaway: the run never stops')
          if (time >= deadline) late++
          const next = list[Math.min(requests - 1, list.length - 1)]!
          const cap = Math.max(1, Math.min(30_000, deadline - time))
          const unsent = next.kind === 'fail' && next.failure.kind === 'unsent'
          if (!unsent) sent()
          time += Math.min(next.delayMs, cap)
          if (
            next.delayMs > cap ||
            unsent ||
            (next.kind === 'fail' && next.failure.kind === 'lost')
          )
            throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
          if (next.kind === 'ok') {
            const status = init.method === 'POST' ? 201 : 200
            const body = JSON.stringify({ id: 'job_known', status: next.status })
            return { status, headers: { get: () => null }, text: async () => body }
          }
          const { failure } = next
          if (failure.kind !== 'http')
            return { status: 200, headers: { get: () => null }, text: async () => 'not json' }
          const retryAfter =
            failure.retryAfterMs === undefined
              ? null
              : String(Math.ceil(failure.retryAfterMs / 1000))
          return {
            status: failure.status,
            headers: { get: (name: string) => (name === 'retry-after' ? retryAfter : null) },
            text: async () => '<html>Bad Gateway</html>'
          }
        }
        await run({
          fetch,
          now: () => time,
          sleep: async (ms, signal) => {
            if (signal.aborted) throw signal.reason
            time += ms
          },
          random: () => 0.5,
          env: {}
        })
        expect(time - EPOCH).toBeLessThanOrEqual(timeoutMs + budgetsFor(timeoutMs).last)
        expect(requests).toBeGreaterThan(0)
        expect(late).toBe(0)
        expect(how === 'create' || core.outputs()['job-id'] === 'job_known').toBe(true)
        // A job that was never seen ending is never reported as done.
        expect(core.outputs().status ?? '').not.toBe('completed')
      }),
      { numRuns: 150 }
    )
  })
})

describe('what follows the job fits in the last writes’ budget past the deadline (property)', () => {
  it('reading the docs pull request, then the last writes, end by the deadline plus that budget', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3_600_000 }),
        fc.integer({ min: 1_000, max: 5_000 }),
        fc.integer({ min: 0, max: 600_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (deadline, lastMs, jobEndsBefore, readShare) => {
          // Every request ends by the deadline, so the job is seen to end by then too.
          const ended = deadline - jobEndsBefore
          const budgets = { ...budgetsFor(60_000), last: lastMs }
          const readBy = phaseEnd('after', ended, deadline, budgets)
          // The docs read takes any part of its window.
          const writesStart = ended + Math.max(0, readBy - ended) * readShare
          const writesEnd = lastWindow(writesStart, deadline, lastMs).by
          return (
            writesEnd <= deadline + lastMs &&
            readBy <= deadline + lastMs / 2 &&
            // Early in the step, each keeps its whole budget.
            (ended + 2 * lastMs > deadline ||
              (readBy === ended + lastMs &&
                lastWindow(ended, deadline, lastMs).by === ended + lastMs))
          )
        }
      )
    )
  })
})
