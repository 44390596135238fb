import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  ApiError,
  DeadlineError,
  RateLimitError,
  UncertainError,
  type Failure
} from '../src/base/errors.js'
import { CREATE, MESSAGE, POLL } from '../src/clients/mintlify/api.js'
import type { Job } from '../src/clients/mintlify/job.js'
import {
  decide,
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_MS,
  mayHaveLanded,
  mayRetry,
  parseRetryAfter,
  provedNotDone,
  type RequestKind,
  type Situation
} from '../src/clients/mintlify/policy.js'
import { send } from '../src/clients/mintlify/poll.js'
import {
  PREVIEW_REQUEST,
  requestPreview,
  type PreviewApi
} from '../src/clients/mintlify/preview.js'
import { FAILURE_PROOFS, NON_IDEMPOTENT_ROUTES } from '../__fixtures__/platform-answers.js'
import { EPOCH, virtualRuntime } from '../__fixtures__/runtime.js'

const NOW = Date.parse('2026-11-22T12:00:00Z')

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000)
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0)
  })

  it('reads an HTTP date relative to now', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 12:01:30 GMT', NOW)).toBe(90_000)
  })

  it('reads a date in the past as no wait', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 11:00:00 GMT', NOW)).toBe(0)
  })

  it('reads the obsolete RFC 850 form, two-digit year included', () => {
    expect(parseRetryAfter('Sunday, 22-Nov-26 12:01:30 GMT', NOW)).toBe(90_000)
  })

  it('reads the asctime form', () => {
    expect(parseRetryAfter('Sun Nov 22 12:01:30 2026', NOW)).toBe(90_000)
    expect(parseRetryAfter('Sun Nov  2 12:00:00 2026', NOW)).toBe(0)
  })

  it('bounds huge values to a day', () => {
    expect(parseRetryAfter('99999999999999999999', NOW)).toBe(MAX_RETRY_AFTER_MS)
    expect(parseRetryAfter('Fri, 01 Jan 2100 00:00:00 GMT', NOW)).toBe(MAX_RETRY_AFTER_MS)
  })

  it.each(['', 'soon', '-5', '1.5', '1e3', 'Sun, 99 Foo 2026 xx:yy:zz GMT', null, undefined])(
    'ignores %j',
    (value) => {
      expect(parseRetryAfter(value, NOW)).toBeUndefined()
    }
  )

  it('never returns a negative, non-finite or over-long wait (property)', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const ms = parseRetryAfter(value, NOW)
        return ms === undefined || (Number.isFinite(ms) && ms >= 0 && ms <= MAX_RETRY_AFTER_MS)
      })
    )
  })

  it('reads back any whole number of seconds it is given (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 86_400 }), (seconds) => {
        return parseRetryAfter(String(seconds), NOW) === seconds * 1000
      })
    )
  })
})

const http = (status: number, retryAfterMs?: number): Failure => ({
  kind: 'http',
  status,
  retryAfterMs
})

describe('the gate of requests that are not idempotent', () => {
  const KINDS: Record<'create' | 'message' | 'preview', RequestKind> = {
    create: CREATE,
    message: MESSAGE,
    preview: PREVIEW_REQUEST
  }

  it('covers every request the platform documents as not idempotent', () => {
    for (const { kind } of NON_IDEMPOTENT_ROUTES) expect(KINDS[kind].idempotent).toBe(false)
  })

  it('rests on the agent routes answering 429 "Rate limit exceeded" in place of the job', () => {
    const agent = NON_IDEMPOTENT_ROUTES.filter((route) => route.kind !== 'preview')
    expect(agent.map((route) => route.kind)).toEqual(['create', 'message'])
    for (const { answers } of agent) {
      expect(answers).toContainEqual({ status: 429, description: 'Rate limit exceeded' })
      // One success, and the rest refusals: no documented answer says the work was done and failed.
      expect(answers.filter((a) => a.status < 300)).toHaveLength(1)
    }
  })

  it.each(FAILURE_PROOFS.map((row) => [row.what, row] as const))(
    '%s: sent again only when it proves nothing was done',
    (_, { failure, proof }) => {
      expect(provedNotDone(failure)).toBe(proof === 'not-done')
      expect(mayHaveLanded(failure)).toBe(proof === 'unknown')
      for (const kind of Object.values(KINDS)) {
        expect(mayRetry(kind, failure)).toBe(proof === 'not-done')
      }
    }
  )

  it('sends nothing again that was sent and answered other than 429 (property)', () => {
    const failures = fc.oneof(
      fc.constant<Failure>({ kind: 'lost' }),
      fc.constant<Failure>({ kind: 'invalid-response' }),
      fc.boolean().map((permanent): Failure => ({ kind: 'unsent', permanent })),
      fc.record({ kind: fc.constant('http' as const), status: fc.integer({ min: 300, max: 599 }) })
    )
    fc.assert(
      fc.property(failures, (failure) => {
        const retried = [CREATE, MESSAGE, PREVIEW_REQUEST].map((kind) => mayRetry(kind, failure))
        const allowed =
          (failure.kind === 'unsent' && !failure.permanent) ||
          (failure.kind === 'http' && failure.status === 429)
        return retried.every((r) => r === allowed)
      })
    )
  })
})

describe('mayRetry', () => {
  it.each<[string, boolean, boolean, Failure]>([
    // what failed, retry a create (or a message)?, retry a poll?
    // A 429 refused the request for its rate (RFC 6585, section 4): it did nothing.
    ['429', true, true, http(429)],
    ['429 with Retry-After', true, true, http(429, 1000)],
    ['503 with Retry-After', false, true, http(503, 1000)],
    ['503 without Retry-After', false, true, http(503)],
    ['500', false, true, http(500)],
    ['502', false, true, http(502)],
    ['504', false, true, http(504)],
    ['501', false, false, http(501)],
    ['505', false, false, http(505)],
    ['408', false, true, http(408)],
    ['400', false, false, http(400)],
    ['401', false, false, http(401)],
    ['403', false, false, http(403)],
    ['404', false, false, http(404)],
    ['307', false, false, http(307)],
    ['never sent', true, true, { kind: 'unsent', permanent: false }],
    ['never sendable (TLS, proxy auth)', false, false, { kind: 'unsent', permanent: true }],
    ['lost after sending', false, true, { kind: 'lost' }],
    ['body that is not a job', false, true, { kind: 'invalid-response' }]
  ])('%s: create %s, poll %s', (_, create, poll, failure) => {
    expect(mayRetry(CREATE, failure)).toBe(create)
    expect(mayRetry(MESSAGE, failure)).toBe(create)
    expect(mayRetry(POLL, failure)).toBe(poll)
  })
})

describe('decide', () => {
  const situation = (over: Partial<Situation> = {}): Situation => ({
    failures: 1,
    now: NOW,
    deadline: NOW + 600_000,
    pace: { initialMs: 1000, maxMs: 30_000 },
    random: () => 1,
    ...over
  })
  const error = (failure: Failure) => new ApiError('It failed.', failure)
  /** The error a decision stops with; fails the test if it retries instead. */
  const stopped = (decision: ReturnType<typeof decide>): Error => {
    if (decision.retry) throw new Error(`expected a stop, got a retry in ${decision.waitMs} ms`)
    return decision.error
  }

  it('waits at least as long as Retry-After asks', () => {
    expect(decide(POLL, error(http(429, 7000)), situation())).toEqual({
      retry: true,
      waitMs: 7000
    })
  })

  it('keeps the backoff when it is longer than Retry-After', () => {
    expect(decide(POLL, error(http(503, 10)), situation({ failures: 4 }))).toEqual({
      retry: true,
      waitMs: 8000
    })
  })

  it.each([
    ['create', CREATE, /the job may or may not have been created.*duplicate job/],
    ['message', MESSAGE, /the message may or may not have been delivered.*twice/]
  ] as const)('a %s that may have taken effect stops, saying so', (_, kind, words) => {
    const failures = [{ kind: 'lost' }, { kind: 'invalid-response' }, http(500), http(503, 1000)]
    for (const failure of failures as Failure[]) {
      const stop = stopped(decide(kind, error(failure), situation()))
      expect(stop).toBeInstanceOf(UncertainError)
      expect(stop.message).toMatch(words)
    }
  })

  it('a failure that provably had no effect and cannot be retried stops with its own error', () => {
    const original = error(http(401))
    expect(decide(CREATE, original, situation())).toEqual({ retry: false, error: original })
    const tls = error({ kind: 'unsent', permanent: true })
    expect(decide(CREATE, tls, situation())).toEqual({ retry: false, error: tls })
  })

  it(`gives up on a request that is not idempotent after ${MAX_ATTEMPTS} attempts`, () => {
    const unsent = error({ kind: 'unsent', permanent: false })
    expect(decide(CREATE, unsent, situation({ failures: MAX_ATTEMPTS - 1 })).retry).toBe(true)
    const last = stopped(decide(CREATE, unsent, situation({ failures: MAX_ATTEMPTS })))
    expect(last.message).toMatch(/No job was created; gave up after 6/)
  })

  it.each([
    ['create', CREATE],
    ['message', MESSAGE]
  ] as const)('a %s the rate limit refused is sent again after the wait asked for', (_, kind) => {
    expect(decide(kind, error(http(429, 7000)), situation())).toEqual({ retry: true, waitMs: 7000 })
    // Without Retry-After: the backoff (full jitter at 1 of the first second).
    expect(decide(kind, error(http(429)), situation())).toEqual({ retry: true, waitMs: 1000 })
  })

  it('a 429 whose wait passes the deadline stops at once: nothing was done, and when to try again', () => {
    const late = situation({ deadline: NOW + 10_000 })
    const create = stopped(decide(CREATE, error(http(429, 60_000)), late))
    expect(create).toBeInstanceOf(RateLimitError)
    expect(create.message).toBe(
      "It failed. The server asks to wait 1m, longer than the 10s left before this step's " +
        'timeout, so the step stops now instead of sleeping into it. No job was created: the ' +
        'platform refused the request. Try again after 2026-11-22T12:01:00Z.'
    )
    const message = stopped(decide(MESSAGE, error(http(429, 60_000)), late))
    expect(message.message).toMatch(/The message was not delivered: the platform refused/)
    expect(message.message).not.toMatch(/may or may not|dashboard/)
    // Without Retry-After, the backoff that did not fit names the time.
    const short = situation({ deadline: NOW + 500 })
    const backoff = stopped(decide(CREATE, error(http(429)), short))
    expect(backoff.message).toMatch(
      /The step's timeout leaves no time to wait and send it again\. No job was created: the platform refused the request\. Try again after 2026-11-22T12:00:01Z\.$/
    )
  })

  it(`a create the rate limit keeps refusing stops after ${MAX_ATTEMPTS} attempts`, () => {
    const limited = error(http(429, 1000))
    expect(decide(CREATE, limited, situation({ failures: MAX_ATTEMPTS - 1 })).retry).toBe(true)
    const last = stopped(decide(CREATE, limited, situation({ failures: MAX_ATTEMPTS })))
    expect(last).toBeInstanceOf(RateLimitError)
    expect(last.message).toMatch(/It was refused 6 times\. No job was created: .* Try again after/)
  })

  it('stops a read at once when Retry-After passes the deadline, with no invitation to re-run', () => {
    const late = situation({ deadline: NOW + 10_000 })
    const poll = stopped(decide(POLL, error(http(429, 60_000)), late))
    expect(poll).toBeInstanceOf(DeadlineError)
    // Re-running a step that polls would start a second job: no such invitation.
    expect(poll.message).not.toContain('Try again')
  })

  it('never repeats a request that is not idempotent once it may have taken effect, and says so (property)', () => {
    const failures = fc.oneof(
      fc.constant<Failure>({ kind: 'lost' }),
      fc.constant<Failure>({ kind: 'invalid-response' }),
      fc.constant<Failure>({ kind: 'unsent', permanent: false }),
      fc.constant<Failure>({ kind: 'unsent', permanent: true }),
      fc.record({
        kind: fc.constant('http' as const),
        status: fc.integer({ min: 300, max: 599 }),
        retryAfterMs: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined })
      })
    )
    fc.assert(
      fc.property(
        failures,
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 0, max: 3_600_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (failure, count, left, r) => {
          const s = situation({ failures: count, deadline: NOW + left, random: () => r })
          for (const kind of [CREATE, MESSAGE]) {
            const decision = decide(kind, error(failure), s)
            if (!decision.retry) {
              // A 5xx or no readable answer at all: it may have acted.
              const mayHaveActed =
                failure.kind === 'lost' ||
                failure.kind === 'invalid-response' ||
                (failure.kind === 'http' && failure.status >= 500)
              const warned =
                decision.error instanceof UncertainError &&
                decision.error.message.includes('Mintlify dashboard (https://app.mintlify.com)')
              if (mayHaveActed !== warned) return false
              continue
            }
            // A repeat is allowed only where the request provably did nothing: it never left the
            // runner, or the rate limit refused it.
            if (failure.kind !== 'unsent' && !(failure.kind === 'http' && failure.status === 429))
              return false
            if (decision.waitMs < 0 || decision.waitMs >= left) return false
          }
          return true
        }
      )
    )
  })

  it('waits within the cap, or at least what Retry-After asked, never past the deadline (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: undefined }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (count, asked, r) => {
          const s = situation({ failures: count, random: () => r })
          const decision = decide(POLL, error(http(503, asked)), s)
          if (!decision.retry) return asked !== undefined && asked > 600_000
          return decision.waitMs >= (asked ?? 0) && decision.waitMs <= Math.max(30_000, asked ?? 0)
        }
      )
    )
  })
})

describe('a request that is not idempotent, over whole sequences of failures (property)', () => {
  /** What one attempt meets: a failure, or the answer that ends the sequence. */
  const attempt = fc.oneof(
    fc.constant<Failure | 'ok'>('ok'),
    fc.constant<Failure>({ kind: 'unsent', permanent: false }),
    fc.constant<Failure>({ kind: 'unsent', permanent: true }),
    fc.constant<Failure>({ kind: 'lost' }),
    fc.constant<Failure>({ kind: 'invalid-response' }),
    fc.record({
      kind: fc.constant('http' as const),
      status: fc.constantFrom(400, 403, 404, 408, 429, 429, 429, 500, 502, 503, 504),
      retryAfterMs: fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: undefined })
    })
  )
  /** Never left the runner, or refused for its rate: written out here, not taken from the gate. */
  const proved = (f: Failure | 'ok') =>
    f !== 'ok' && (f.kind === 'unsent' || (f.kind === 'http' && f.status === 429))

  /**
   * Runs `request` against `answers` (one per attempt, then 'ok') on a virtual clock and returns
   * how many attempts were made.
   */
  async function attempts(
    answers: readonly (Failure | 'ok')[],
    request: (next: () => Promise<void>, rt: ReturnType<typeof virtualRuntime>) => Promise<unknown>
  ): Promise<number> {
    const rt = virtualRuntime(() => 0.5)
    let made = 0
    const next = async () => {
      const answer = answers[made++] ?? 'ok'
      if (answer !== 'ok') throw new ApiError('It failed.', answer)
    }
    await request(next, rt).catch(() => undefined)
    return made
  }

  const holds = (answers: readonly (Failure | 'ok')[], made: number) =>
    made >= 1 &&
    made <= MAX_ATTEMPTS &&
    // Every attempt but the last met a failure that proves nothing was done.
    answers.slice(0, made - 1).every(proved)

  it('is sent again only after a failure that proves nothing was done, at most MAX_ATTEMPTS times', async () => {
    const created: Job = { id: 'job_1', status: 'active' }
    await fc.assert(
      fc.asyncProperty(
        fc.array(attempt, { maxLength: 12 }),
        fc.integer({ min: 1_000, max: 3_600_000 }),
        fc.constantFrom(CREATE, MESSAGE),
        async (answers, timeoutMs, kind) => {
          const made = await attempts(answers, (next, rt) =>
            send(
              kind,
              async () => {
                await next()
                return created
              },
              { deadline: EPOCH + timeoutMs, initialMs: 1000, maxMs: 30_000 },
              rt
            )
          )
          return holds(answers, made)
        }
      ),
      { numRuns: 300 }
    )
  })

  it('holds for the preview request as well', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(attempt, { maxLength: 12 }),
        fc.integer({ min: 1_000, max: 3_600_000 }),
        async (answers, timeoutMs) => {
          const made = await attempts(answers, (next, rt) => {
            const api: PreviewApi = {
              request: async () => {
                await next()
                return { statusId: 'st_1' }
              },
              status: async () => ({ status: 'success' })
            }
            const schedule = { deadline: EPOCH + timeoutMs, initialMs: 1000, maxMs: 30_000 }
            return requestPreview(api, 'docs', schedule, rt)
          })
          return holds(answers, made)
        }
      ),
      { numRuns: 300 }
    )
  })

  it('a run of 429s is waited out to the end, and not past MAX_ATTEMPTS', async () => {
    const limited: Failure = { kind: 'http', status: 429, retryAfterMs: 1000 }
    const run = (answers: (Failure | 'ok')[]) =>
      attempts(answers, (next, rt) =>
        send(CREATE, next, { deadline: EPOCH + 3_600_000, initialMs: 1000, maxMs: 30_000 }, rt)
      )
    expect(await run([limited, limited, 'ok'])).toBe(3)
    expect(await run(Array<Failure>(MAX_ATTEMPTS + 3).fill(limited))).toBe(MAX_ATTEMPTS)
    expect(await run([limited, { kind: 'http', status: 503 }, 'ok'])).toBe(2)
  })
})
