/** The request policy: after a failed request, the wait before sending it again, or why to stop. */
import { formatDuration } from '../../base/duration.js'
import {
  ApiError,
  DeadlineError,
  RateLimitError,
  UncertainError,
  type Failure
} from '../../base/errors.js'
import { retryDelay, type PollPace } from './schedule.js'

/** What the policy needs to know about a kind of request, and the words for its failures. */
export interface RequestKind {
  /** What the request does, e.g. "create the agent job". */
  readonly action: string
  /** Sending it twice does no harm; any other is repeated only when it provably did nothing. */
  readonly idempotent: boolean
  /** What a repeat would have done, e.g. "starting a duplicate job". */
  readonly duplicate: string
  /** What may have happened when the outcome is unknown. */
  readonly uncertain: string
  /** What to check before running the step again after an unknown outcome. */
  readonly before: string
  /** Said when the request provably had no effect, e.g. "No job was created". */
  readonly noEffect: string
}

/** Any request that only reads. */
export const READ: RequestKind = {
  action: 'read',
  idempotent: true,
  duplicate: 'nothing',
  uncertain: 'nothing was changed',
  before: '',
  noEffect: 'Nothing was changed'
}

/** Attempts at a request that is not idempotent, when none of the earlier ones took effect. */
export const MAX_ATTEMPTS = 6

/** Where a failed request stands. */
export interface Situation {
  /** The failures of this request in a row, this one included. */
  readonly failures: number
  readonly now: number
  readonly deadline: number
  readonly pace: PollPace
  readonly random: () => number
}

type Decision =
  | { readonly retry: true; readonly waitMs: number }
  | { readonly retry: false; readonly error: Error }

/**
 * The gate of every request that is not idempotent: whether the way it failed proves the platform
 * did nothing with it. It never left the runner (`unsent`), or it got HTTP 429, which refuses a
 * request for its rate instead of carrying it out (RFC 6585, section 4); Mintlify's OpenAPI
 * document gives 429 "Rate limit exceeded" as an answer in place of the job or the message, as
 * `@octokit/plugin-throttling` reads GitHub's. Any other failure after sending (a 5xx, a lost
 * connection, an unreadable answer) may follow the work done. `__fixtures__/platform-answers.ts`
 * holds these beliefs as data.
 */
export function provedNotDone(failure: Failure): boolean {
  return failure.kind === 'unsent' || (failure.kind === 'http' && failure.status === 429)
}

/** Whether a failed request may go again: a read if the failure can pass, others by the gate. */
export function mayRetry(kind: RequestKind, failure: Failure): boolean {
  if (failure.kind === 'unsent') return !failure.permanent
  if (!kind.idempotent) return provedNotDone(failure)
  if (failure.kind !== 'http') return true
  const { status } = failure
  return status === 429 || status === 408 || (status >= 500 && status !== 501 && status !== 505)
}

/** Whether a request that failed this way may have reached the platform and taken effect. */
export function mayHaveLanded(failure: Failure): boolean {
  return failure.kind === 'http' ? failure.status >= 500 : failure.kind !== 'unsent'
}

/** `at` rounded up to the second, in ISO 8601, as a user would type it back. */
function secondAfter(at: number): string {
  return new Date(Math.ceil(at / 1000) * 1000).toISOString().replace('.000Z', 'Z')
}

/**
 * After `error`, the wait before sending again (the backoff, or `Retry-After` when longer), never
 * past the deadline, or the error to stop with: for a request that may have taken effect one that
 * says so, and for one the rate limit refused past `MAX_ATTEMPTS` one that says when to try again.
 */
export function decide(kind: RequestKind, error: ApiError, situation: Situation): Decision {
  const { failure } = error
  if (!mayRetry(kind, failure)) {
    const landed = !kind.idempotent && mayHaveLanded(failure)
    return { retry: false, error: landed ? uncertain(kind, error) : error }
  }
  const { failures, now } = situation
  const left = situation.deadline - now
  const asked = failure.kind === 'http' ? failure.retryAfterMs : undefined
  const over = asked !== undefined && asked > left ? asked : undefined
  const waitMs = Math.round(
    Math.max(retryDelay(failures, situation.pace, situation.random), asked ?? 0)
  )
  const tooLong = (ms: number) =>
    `The server asks to wait ${formatDuration(ms)}, longer than the ` +
    `${formatDuration(Math.max(0, left))} left before this step's timeout, so the step stops ` +
    'now instead of sleeping into it.'
  const stop = (error: Error): Decision => ({ retry: false, error })

  // A request the rate limit refused did nothing: running the step again later is safe.
  if (!kind.idempotent && failure.kind === 'http' && failure.status === 429) {
    if (over === undefined && failures < MAX_ATTEMPTS && waitMs < left) {
      return { retry: true, waitMs }
    }
    const why =
      over !== undefined
        ? tooLong(over)
        : failures >= MAX_ATTEMPTS
          ? `It was refused ${failures} times.`
          : "The step's timeout leaves no time to wait and send it again."
    return stop(
      new RateLimitError(
        `${error.message} ${why} ${kind.noEffect}: the platform refused the request. ` +
          `Try again after ${secondAfter(now + (over ?? waitMs))}.`
      )
    )
  }
  if (over !== undefined) return stop(new DeadlineError(`${error.message} ${tooLong(over)}`))
  if (kind.idempotent && waitMs >= left) {
    const message = `${error.message} The step's timeout leaves no time to ${kind.action} again.`
    return stop(new DeadlineError(message, 'no-time', error))
  }
  if (!kind.idempotent && (failures >= MAX_ATTEMPTS || waitMs >= left)) {
    return stop(
      new DeadlineError(
        `${error.message} ${kind.noEffect}; gave up after ${failures} attempts` +
          (waitMs >= left ? " as the step's timeout leaves no time for another." : '.'),
        waitMs >= left ? 'no-time' : 'asked'
      )
    )
  }
  return { retry: true, waitMs }
}

/** The error for a request that is not idempotent and may have taken effect: never repeated. */
function uncertain(kind: RequestKind, error: ApiError): UncertainError {
  return new UncertainError(
    `The request to ${kind.action} failed after it was sent (${error.message}), so ` +
      `${kind.uncertain}. It was not sent again, to avoid ${kind.duplicate}. ${kind.before}`
  )
}

/** Longest `Retry-After` taken at face value (a day); anything longer is treated as a day. */
export const MAX_RETRY_AFTER_MS = 86_400_000

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

// The three forms of an HTTP date every recipient must accept (RFC 9110, section 5.6.7):
// IMF-fixdate, the obsolete RFC 850 form, and asctime.
const HTTP_DATES = [
  /^[a-z]{3}, (?<d>\d{2}) (?<m>[a-z]{3}) (?<y>\d{4}) (?<t>\d{2}:\d{2}:\d{2}) gmt$/i,
  /^[a-z]{6,9}, (?<d>\d{2})-(?<m>[a-z]{3})-(?<y>\d{2}) (?<t>\d{2}:\d{2}:\d{2}) gmt$/i,
  /^[a-z]{3} (?<m>[a-z]{3}) (?<d>[ \d]\d) (?<t>\d{2}:\d{2}:\d{2}) (?<y>\d{4})$/i
]

function parseHttpDate(text: string, nowMs: number): number | undefined {
  const date = HTTP_DATES.map((form) => form.exec(text)?.groups).find(Boolean)
  const month = MONTHS.indexOf(date?.m?.toLowerCase() ?? '')
  if (!date || month < 0) return undefined
  let year = Number(date.y)
  if (date.y?.length === 2) {
    // A two-digit year more than 50 years ahead is the most recent past year with those digits.
    const nowYear = new Date(nowMs).getUTCFullYear()
    year += Math.floor(nowYear / 100) * 100
    if (year > nowYear + 50) year -= 100
  }
  const [hour, minute, second] = (date.t ?? '').split(':').map(Number)
  const at = Date.UTC(year, month, Number(date.d), hour, minute, second)
  return Number.isNaN(at) ? undefined : at
}

/** A `Retry-After` (seconds or an HTTP date) as a wait in ms; undefined when not understood. */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number
): number | undefined {
  const text = value?.trim() ?? ''
  if (text === '') return undefined
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS)
  const at = parseHttpDate(text, nowMs)
  return at === undefined ? undefined : Math.min(Math.max(0, at - nowMs), MAX_RETRY_AFTER_MS)
}
