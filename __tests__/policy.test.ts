import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { ApiError, DeadlineError, UncertainError, type Failure } from '../src/errors.js'
import { CREATE, MESSAGE, POLL } from '../src/mintlify/api.js'
import {
  decide,
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_MS,
  mayRetry,
  parseRetryAfter,
  type Situation
} from '../src/mintlify/policy.js'

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

describe('mayRetry', () => {
  it.each<[string, boolean, boolean, Failure]>([
    // what failed, retry a create (or a message)?, retry a poll?
    // A 429 is not proof that nothing was done: the API reference names the status only.
    ['429', false, true, http(429)],
    ['429 with Retry-After', false, true, http(429, 1000)],
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

  it('a 429 on a create stops at once, says a job may exist, where to look and when to try again', () => {
    for (const s of [situation(), situation({ deadline: NOW + 10_000 })]) {
      const create = stopped(decide(CREATE, error(http(429, 60_000)), s))
      expect(create).toBeInstanceOf(UncertainError)
      expect(create.message).toMatch(
        /asks to wait 1m\. .*not sent again, to avoid starting a duplicate job\. Check the Mintlify dashboard \(https:\/\/app\.mintlify\.com\) for a job that may exist .* Try again after 2026-11-22T12:01:00Z\.$/
      )
    }
    const without = stopped(decide(MESSAGE, error(http(429)), situation()))
    expect(without.message).toMatch(
      /sending the instructions twice\. Check the job in the Mintlify/
    )
    expect(without.message).not.toMatch(/asks to wait|Try again/)
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
              // An answer of the server's own (a 5xx, a 429) or none at all: it may have acted.
              const mayHaveActed =
                failure.kind === 'lost' ||
                failure.kind === 'invalid-response' ||
                (failure.kind === 'http' && (failure.status >= 500 || failure.status === 429))
              const warned =
                decision.error instanceof UncertainError &&
                decision.error.message.includes('Mintlify dashboard (https://app.mintlify.com)')
              if (mayHaveActed !== warned) return false
              continue
            }
            // A repeat is allowed only where the request provably never left the runner.
            if (failure.kind !== 'unsent') return false
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
