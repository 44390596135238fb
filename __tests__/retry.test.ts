import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import type { Failure } from '../src/errors.js'
import { isRetryable, MAX_RETRY_AFTER_MS, parseRetryAfter, retryDelay } from '../src/retry.js'
import { backoffDelay, POLL_JITTER, pollDelay } from '../src/schedule.js'

const pace = { initialMs: 5000, maxMs: 30_000 }
const NOW = Date.parse('2026-11-22T12:00:00Z')

describe('pollDelay', () => {
  it('grows ×1.5 from the first interval to the maximum', () => {
    const noJitter = () => 0
    const delays = Array.from({ length: 7 }, (_, polls) => pollDelay(polls, pace, noJitter))
    expect(delays).toEqual([5000, 7500, 11_250, 16_875, 25_312.5, 30_000, 30_000])
  })

  it('only ever shortens a wait by the jitter, never lengthens it', () => {
    expect(pollDelay(0, pace, () => 1)).toBe(5000 * (1 - POLL_JITTER))
    expect(pollDelay(20, pace, () => 1)).toBe(30_000 * (1 - POLL_JITTER))
  })

  it('keeps every delay between (1 - jitter) × its step and the maximum (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 0, max: 600_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (polls, initialMs, extra, r) => {
          const p = { initialMs, maxMs: initialMs + extra }
          const delay = pollDelay(polls, p, () => r)
          const step = Math.min(p.maxMs, initialMs * 1.5 ** polls)
          return delay <= p.maxMs && delay <= step && delay >= step * (1 - POLL_JITTER) - 1e-6
        }
      )
    )
  })

  it('treats a broken random source as no jitter rather than a negative or huge wait', () => {
    expect(pollDelay(0, pace, () => Number.NaN)).toBe(5000)
    expect(pollDelay(0, pace, () => 7)).toBe(5000 * (1 - POLL_JITTER))
  })
})

describe('backoffDelay', () => {
  it('doubles its ceiling per attempt up to the cap (full jitter at its top)', () => {
    const top = () => 1
    expect([0, 1, 2, 3, 4, 5].map((a) => backoffDelay(a, 1000, 10_000, top))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000
    ])
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

describe('isRetryable', () => {
  const http = (status: number, retryAfterMs?: number): Failure => ({
    kind: 'http',
    status,
    retryAfterMs
  })

  it.each<[string, boolean, boolean, Failure]>([
    // what failed, retry a create?, retry a poll?
    ['429', true, true, http(429)],
    ['429 with Retry-After', true, true, http(429, 1000)],
    ['503 with Retry-After', true, true, http(503, 1000)],
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
    ['connection never opened', true, true, { kind: 'network', sent: false }],
    ['connection lost after sending', false, true, { kind: 'network', sent: true }],
    ['untrusted certificate', false, false, { kind: 'tls' }],
    ['body that is not a job', false, true, { kind: 'invalid-response' }]
  ])('%s: create %s, poll %s', (_, create, poll, failure) => {
    expect(isRetryable('create', failure)).toBe(create)
    expect(isRetryable('poll', failure)).toBe(poll)
  })
})

describe('retryDelay', () => {
  it('waits at least as long as Retry-After asks', () => {
    expect(
      retryDelay({ kind: 'http', status: 429, retryAfterMs: 7000 }, 0, 1000, 30_000, () => 1)
    ).toBe(7000)
  })

  it('keeps the backoff when it is longer than Retry-After', () => {
    expect(
      retryDelay({ kind: 'http', status: 503, retryAfterMs: 10 }, 3, 1000, 30_000, () => 1)
    ).toBe(8000)
  })
})
