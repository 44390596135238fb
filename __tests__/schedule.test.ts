import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { formatDuration, parseDuration } from '../src/base/duration.js'
import {
  backoffDelay,
  POLL_GROWTH,
  POLL_JITTER,
  pollDelay,
  type PollPace
} from '../src/clients/mintlify/schedule.js'

// The goals of the default schedule, worked out from `pollDelay` itself rather than measured
// (`npm run bench` measures them on the wait loop). For jobs of 1 to 10 minutes, with each status
// check taking 200 ms: the end of a job is noticed within 8 s on average and 16 s at worst, with
// no more status checks on average than polling every 10 s.

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The default of a duration input in action.yml, in milliseconds. */
function actionDefault(name: string): number {
  const action: unknown = parse(readFileSync(new URL('../action.yml', import.meta.url), 'utf8'))
  const input = isRecord(action) && isRecord(action.inputs) ? action.inputs[name] : undefined
  return (
    parseDuration(isRecord(input) && typeof input.default === 'string' ? input.default : '') ?? NaN
  )
}

/** `poll-interval` and `max-poll-interval` as users get them by default. */
const DEFAULT_PACE: PollPace = {
  initialMs: actionDefault('poll-interval'),
  maxMs: actionDefault('max-poll-interval')
}

/** A plain poller that checks every 10 s: the same schedule with no growth and no jitter. */
const EVERY_10S: PollPace = { initialMs: 10 * SECOND, maxMs: 10 * SECOND }

/** How long one status check takes in the goals: a request to the API from a runner. */
const REQUEST_MS = 200

/** The jobs the goals are set for: every whole second from 1 to 10 minutes. */
const JOBS = Array.from({ length: 9 * 60 + 1 }, (_, i) => MINUTE + i * SECOND)

const noJitter = () => 0
/** The largest jitter on every wait: the shortest waits, so the most polls. */
const fullJitter = () => 1

/** Values for the random source behind the jitter, replayed in turn by `replay`. */
const anyJitter = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), {
  minLength: 1,
  maxLength: 50
})

/** Cycles through `values`, as a stand-in for the action's `Math.random`. */
function replay(values: readonly number[]): () => number {
  let i = 0
  return () => values[i++ % values.length] ?? 0
}

/**
 * Waits for a job that ends `jobMs` after it was created, spacing the polls as the wait loop
 * does: the first `pollDelay(0)` after the create, then `pollDelay(n)` after the answer to the
 * n-th poll, each poll taking `requestMs` and seeing the job as it is when it answers. Returns how
 * many polls it took, the one that saw the end included, and how late that was.
 */
function waitFor(jobMs: number, pace: PollPace, random: () => number, requestMs = 0) {
  let time = 0
  let polls = 0
  do {
    time += pollDelay(polls, pace, random) + requestMs
    polls += 1
  } while (time < jobMs)
  return { polls, noticeMs: time - jobMs }
}

/** Polls per job and lateness, on average and at worst, over `JOBS`, one after the other. */
function overJobs(pace: PollPace, random: () => number) {
  let polls = 0
  let noticeMs = 0
  let worstNoticeMs = 0
  for (const jobMs of JOBS) {
    const one = waitFor(jobMs, pace, random, REQUEST_MS)
    polls += one.polls
    noticeMs += one.noticeMs
    worstNoticeMs = Math.max(worstNoticeMs, one.noticeMs)
  }
  return { polls: polls / JOBS.length, noticeMs: noticeMs / JOBS.length, worstNoticeMs }
}

describe('pollDelay', () => {
  it('waits 5 s, then ×1.5 each time up to 15 s, with the defaults', () => {
    expect(DEFAULT_PACE).toEqual({ initialMs: 5 * SECOND, maxMs: 15 * SECOND })
    const waits = Array.from({ length: 6 }, (_, polls) => pollDelay(polls, DEFAULT_PACE, noJitter))
    expect(waits).toEqual([5000, 7500, 11_250, 15_000, 15_000, 15_000])
    expect(POLL_GROWTH).toBe(1.5)
  })

  it('only ever shortens a wait by the jitter, never lengthens it', () => {
    expect(pollDelay(0, DEFAULT_PACE, fullJitter)).toBe(5000 * (1 - POLL_JITTER))
    expect(pollDelay(20, DEFAULT_PACE, fullJitter)).toBe(15_000 * (1 - POLL_JITTER))
    expect(POLL_JITTER).toBe(0.1)
  })

  it.each([
    ['NaN', Number.NaN, 5000],
    ['a value above 1', 7, 5000 * (1 - POLL_JITTER)],
    ['a negative value', -3, 5000],
    ['Infinity', Number.POSITIVE_INFINITY, 5000]
  ])('treats %s from the random source as a value in [0, 1]', (_, value, wait) => {
    expect(pollDelay(0, DEFAULT_PACE, () => value)).toBe(wait)
  })

  it('treats a negative poll count as none', () => {
    expect(pollDelay(-3, DEFAULT_PACE, noJitter)).toBe(5000)
  })

  it('keeps every wait between (1 - jitter) × its step and the maximum (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 0, max: 600_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (polls, initialMs, extra, r) => {
          const pace = { initialMs, maxMs: initialMs + extra }
          const wait = pollDelay(polls, pace, () => r)
          const step = Math.min(pace.maxMs, initialMs * POLL_GROWTH ** polls)
          return wait > 0 && wait <= step && wait >= step * (1 - POLL_JITTER) - 1e-6
        }
      )
    )
  })
})

describe('the goals of the default schedule, for jobs of 1 to 10 minutes', () => {
  it('notices the end within 8 s on average and 16 s at worst, whatever the jitter (property)', () => {
    fc.assert(
      fc.property(anyJitter, (jitter) => {
        const { noticeMs, worstNoticeMs } = overJobs(DEFAULT_PACE, replay(jitter))
        return noticeMs <= 8 * SECOND && worstNoticeMs <= 16 * SECOND
      }),
      { numRuns: 50, examples: [[[0]], [[1]]] }
    )
  })

  it('polls no more on average than every 10 s, whatever the jitter (property)', () => {
    const fixed = overJobs(EVERY_10S, noJitter).polls
    fc.assert(
      fc.property(anyJitter, (jitter) => overJobs(DEFAULT_PACE, replay(jitter)).polls <= fixed),
      { numRuns: 50, examples: [[[1]]] }
    )
  })

  it('meets them where the old default of 30 s did not', () => {
    const old = overJobs({ initialMs: 5 * SECOND, maxMs: 30 * SECOND }, () => 0.5)
    expect(old.noticeMs).toBeGreaterThan(8 * SECOND)
    expect(old.worstNoticeMs).toBeGreaterThan(16 * SECOND)
  })

  it.each([
    ['the default, without jitter', 23.6, 7.6, DEFAULT_PACE, noJitter],
    ['the default, with the most jitter', 26, 6.9, DEFAULT_PACE, fullJitter],
    ['a fixed 10 s poll', 32.8, 5, EVERY_10S, noJitter]
  ] as const)('%s averages %s polls and notices the end %s s late', (_, polls, s, pace, random) => {
    const figures = overJobs(pace, random)
    expect(figures.polls).toBeCloseTo(polls, 1)
    expect(figures.noticeMs / SECOND).toBeCloseTo(s, 1)
  })
})

describe('what the default schedule costs', () => {
  // Exact counts for the shipped defaults, without jitter and with the most jitter, against a
  // fixed 10 s poll. A change to the schedule shows up here as a change to what users pay.
  it.each(
    (
      [
        [30 * SECOND, 4, 4, 3],
        [1 * MINUTE, 6, 6, 6],
        [2 * MINUTE, 10, 11, 12],
        [5 * MINUTE, 22, 24, 30],
        [10 * MINUTE, 42, 46, 60],
        [30 * MINUTE, 122, 135, 180],
        [60 * MINUTE, 242, 269, 360]
      ] as const
    ).map(([jobMs, ...counts]) => [formatDuration(jobMs), ...counts, jobMs] as const)
  )(
    'a %s job takes %d to %d polls, against %d polling every 10 s',
    (_, least, most, fixed, jobMs) => {
      expect(waitFor(jobMs, DEFAULT_PACE, noJitter).polls).toBe(least)
      expect(waitFor(jobMs, DEFAULT_PACE, fullJitter).polls).toBe(most)
      expect(waitFor(jobMs, EVERY_10S, noJitter).polls).toBe(fixed)
    }
  )
})

describe('noticing the end of a job', () => {
  it('happens within max-poll-interval, whatever the pace, job length and jitter (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1 * SECOND, max: 60 * SECOND }),
        fc.integer({ min: 0, max: 10 * MINUTE }),
        fc.integer({ min: 0, max: 1 * HOUR }),
        anyJitter,
        (initialMs, extra, jobMs, jitter) => {
          const pace = { initialMs, maxMs: initialMs + extra }
          const { noticeMs } = waitFor(jobMs, pace, replay(jitter))
          return noticeMs >= 0 && noticeMs <= pace.maxMs
        }
      )
    )
  })

  it.each([
    ['a job that ends just after a poll, without jitter', 5000 + 7500 + 1, noJitter, 11_249],
    ['a job that ends just after a poll, with the most jitter', 4500 + 1, fullJitter, 6749],
    ['a long job that ends just after a poll', 38_750 + 15_000 + 1, noJitter, 14_999]
  ])('waits at most one whole wait: %s', (_, jobMs, random, noticeMs) => {
    expect(waitFor(jobMs, DEFAULT_PACE, random).noticeMs).toBeCloseTo(noticeMs, 6)
  })
})

describe('backoffDelay', () => {
  it('doubles its ceiling per attempt up to the cap (full jitter at its top)', () => {
    const top = () => 1
    expect([0, 1, 2, 3, 4, 5].map((a) => backoffDelay(a, 1000, 10_000, top))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000
    ])
  })

  it.each([
    ['0 at the bottom of the jitter', () => 0, 0],
    ['half the ceiling in the middle', () => 0.5, 2000],
    ['0 for NaN', () => Number.NaN, 0],
    ['the ceiling for a value above 1', () => 3, 4000]
  ])('waits %s', (_, random, wait) => {
    expect(backoffDelay(2, 1000, 10_000, random)).toBe(wait)
  })

  it('treats a negative attempt as the first', () => {
    expect(backoffDelay(-1, 1000, 10_000, () => 1)).toBe(1000)
  })

  it('stays within [0, min(cap, base × 2^attempt)] for any randomness (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 1, max: 600_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (attempt, base, cap, r) => {
          const delay = backoffDelay(attempt, base, cap, () => r)
          return delay >= 0 && delay <= Math.min(cap, base * 2 ** attempt)
        }
      )
    )
  })
})
