import type { Failure, Operation } from './errors.js'
import { backoffDelay } from './schedule.js'

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
