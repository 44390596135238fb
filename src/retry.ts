import type { Failure, Operation } from './errors.js'

/** Each wait between polls is this many times the one before, up to the maximum. */
export const POLL_GROWTH = 1.5

/** Polls are spread by up to this fraction below the scheduled wait, never above it. */
export const POLL_JITTER = 0.1

export interface PollPace {
  /** First wait between polls (`poll-interval`). */
  readonly initialMs: number
  /** Longest wait between polls (`max-poll-interval`). */
  readonly maxMs: number
}

/**
 * The wait before the next poll after `polls` polls have answered: grows ×1.5 from the first
 * interval to the maximum, less a little jitter so that many runs started together drift apart.
 * The jitter only shortens a wait, so the end of a job is always noticed within `maxMs`.
 */
export function pollDelay(polls: number, pace: PollPace, random: () => number): number {
  const scheduled = Math.min(pace.maxMs, pace.initialMs * POLL_GROWTH ** Math.max(0, polls))
  return scheduled * (1 - POLL_JITTER * clamp01(random()))
}

/**
 * Exponential backoff with full jitter for the `attempt`-th retry in a row (0 for the first):
 * a random wait between 0 and min(cap, base × 2^attempt).
 */
export function backoffDelay(
  attempt: number,
  baseMs: number,
  capMs: number,
  random: () => number
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt))
  return ceiling * clamp01(random())
}

/** Longest `Retry-After` taken at face value (a day); anything longer is treated as a day. */
export const MAX_RETRY_AFTER_MS = 86_400_000

/**
 * Reads a `Retry-After` header, in either of its forms: delay-seconds (`120`) or an HTTP date.
 * Returns the wait in milliseconds (0 for a date in the past), or undefined when the header is
 * missing or not understood.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number
): number | undefined {
  if (value === null || value === undefined) return undefined
  const text = value.trim()
  if (text === '') return undefined
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS)
  // An HTTP date always names a weekday and a month; `Date.parse` alone would accept "1" or "2024".
  if (!/^[A-Za-z]{3},? .*\d{2}:\d{2}:\d{2}/.test(text)) return undefined
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.min(Math.max(0, at - nowMs), MAX_RETRY_AFTER_MS)
}

/**
 * Whether a failed request may be sent again.
 *
 * Creating a job is not idempotent and the API offers no idempotency key, so a create is retried
 * only when the server provably did not act on it: it said so (429, or 503 with `Retry-After`), or
 * the connection never opened. Polls only read, so every transient failure is retried.
 */
export function isRetryable(operation: Operation, failure: Failure): boolean {
  switch (failure.kind) {
    case 'network':
      return operation === 'poll' || !failure.sent
    case 'invalid-response':
      return operation === 'poll'
    case 'tls':
      return false
    case 'http':
      if (failure.status === 429) return true
      if (operation === 'create')
        return failure.status === 503 && failure.retryAfterMs !== undefined
      return (
        failure.status === 408 ||
        (failure.status >= 500 &&
          failure.status <= 599 &&
          failure.status !== 501 &&
          failure.status !== 505)
      )
  }
}

/**
 * How long to wait before retrying: the backoff, or what the server asked for in `Retry-After`
 * when that is longer.
 */
export function retryDelay(
  failure: Failure,
  attempt: number,
  baseMs: number,
  capMs: number,
  random: () => number
): number {
  const backoff = backoffDelay(attempt, baseMs, capMs, random)
  const asked = failure.kind === 'http' ? failure.retryAfterMs : undefined
  return asked === undefined ? backoff : Math.max(backoff, asked)
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0
}
