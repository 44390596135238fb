/**
 * The request policy: after a failed request, wait how long and send it again, or stop with which
 * error. Every caller (creating a job, sending a message, asking for a preview, checking a job or a
 * preview) asks here; none decides for itself. Pure: the clock and randomness come in as arguments.
 */
import { formatDuration } from '../duration.js'
import { ApiError, DeadlineError, RateLimitError, UncertainError, type Failure } from '../errors.js'
import { backoffDelay, type PollPace } from './schedule.js'

/** What the policy needs to know about a kind of request; each kind declares it once. */
export interface RequestKind {
  /** What the request does, e.g. "create the agent job". */
  readonly action: string
  /** Sending it twice does no harm (a read). A request that is not idempotent is never repeated
   * unless it provably had no effect. */
  readonly idempotent: boolean
  /** What a repeat that is refused would have done, e.g. "starting a duplicate job". */
  readonly duplicate: string
  /** What may have happened when the outcome is unknown, e.g. "the job may or may not have been
   * created". */
  readonly uncertain: string
  /** What to check before running the step again after an unknown outcome. */
  readonly before: string
  /** Said when the request provably had no effect, e.g. "No job was created". */
  readonly noEffect: string
}

/** Any request that only reads: harmless to repeat. */
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
  /** The failures of this request in a row, this one included (1 for the first). */
  readonly failures: number
  readonly now: number
  /** When the step must end, on the `now` clock. */
  readonly deadline: number
  /** The backoff grows from `initialMs` and is capped at `maxMs`. */
  readonly pace: PollPace
  readonly random: () => number
}

export type Decision =
  | { readonly retry: true; readonly waitMs: number }
  | { readonly retry: false; readonly error: Error }

/**
 * The one gate of every request that is not idempotent (creating a job, sending a follow-up
 * message, asking for a preview): whether the way it failed proves the platform did nothing with
 * it, so that sending it again cannot do the work twice. Two failures prove it:
 *
 * - It never left the runner (`unsent`): no connection, or one that failed before the request was
 *   written to it. Nothing reached the platform.
 * - HTTP 429. "The 429 status code indicates that the user has sent too many requests in a given
 *   amount of time" (RFC 6585, section 4): the server refuses the request for its rate, it does not
 *   carry it out. The platform's reference says the same of its own routes: its admin OpenAPI
 *   document (version 2.0.0) answers `POST /v2/agent/{projectId}/job` with 201 "Agent job created
 *   successfully", 400 "Invalid request" or 429 "Rate limit exceeded", and
 *   `POST /v2/agent/{projectId}/job/{id}/message` with 200 "Message sent successfully", 400, 404
 *   or 429 "Rate limit exceeded": a 429 is the answer in place of the job, not after it. Clients
 *   people rely on read it so too: `@octokit/plugin-throttling`, which this action uses for
 *   GitHub, waits a 429 out and sends the request again.
 *
 * Every other failure after sending may come after the work was done: a 5xx (a gateway gives up
 * on a server that goes on), a connection lost before the answer, an answer that cannot be read.
 * `__fixtures__/platform-answers.ts` holds these beliefs as data the tests check the gate against.
 */
export function provedNotDone(failure: Failure): boolean {
  return failure.kind === 'unsent' || (failure.kind === 'http' && failure.status === 429)
}

/**
 * Whether a request of this kind that failed this way may be sent again. A read may, after any
 * failure that can pass. A request that is not idempotent may only when the gate (`provedNotDone`)
 * says the platform did not act, and the failure can pass: a TLS or proxy refusal never does.
 */
export function mayRetry(kind: RequestKind, failure: Failure): boolean {
  if (!kind.idempotent) {
    return provedNotDone(failure) && !(failure.kind === 'unsent' && failure.permanent)
  }
  switch (failure.kind) {
    case 'unsent':
      return !failure.permanent
    case 'lost':
    case 'invalid-response':
      return true
    case 'http':
      return (
        failure.status === 429 ||
        failure.status === 408 ||
        (failure.status >= 500 && failure.status !== 501 && failure.status !== 505)
      )
  }
}

/**
 * Whether a request that failed this way may have reached the platform and taken effect: a
 * failure after sending that is not a refusal. A 4xx (429 included, see `provedNotDone`) or a
 * redirect refused it; a 5xx, no answer or an unreadable answer may follow the work done.
 */
export function mayHaveLanded(failure: Failure): boolean {
  switch (failure.kind) {
    case 'unsent':
      return false
    case 'lost':
    case 'invalid-response':
      return true
    case 'http':
      return failure.status >= 500
  }
}

/** `at` as an ISO 8601 time rounded up to the second, as a user would type it back. */
function secondAfter(at: number): string {
  return new Date(Math.ceil(at / 1000) * 1000).toISOString().replace('.000Z', 'Z')
}

/** The error for a request that is not idempotent and may have taken effect: never repeated. */
function uncertain(kind: RequestKind, error: ApiError): UncertainError {
  return new UncertainError(
    `The request to ${kind.action} failed after it was sent (${error.message}), so ` +
      `${kind.uncertain}. It was not sent again, to avoid ${kind.duplicate}. ${kind.before}`
  )
}

/**
 * After `error`, the next step for a request of `kind`: a wait before sending it again (the
 * backoff, or `Retry-After` when longer), or the error to stop with. A request that is not
 * idempotent and may have taken effect stops with an error saying so, never with a repeat; one the
 * platform refused for its rate is sent again after the wait, at most `MAX_ATTEMPTS` times in all
 * and never past the deadline, and otherwise stops saying nothing was done and when to try again.
 */
export function decide(kind: RequestKind, error: ApiError, situation: Situation): Decision {
  const { failure } = error
  if (!mayRetry(kind, failure)) {
    if (!kind.idempotent && mayHaveLanded(failure)) {
      return { retry: false, error: uncertain(kind, error) }
    }
    return { retry: false, error }
  }

  const { pace, now } = situation
  const left = situation.deadline - now
  const asked = failure.kind === 'http' ? failure.retryAfterMs : undefined
  // Full jitter may draw a wait of nothing: a floor keeps a run of instant failures from
  // becoming a stream of requests.
  const backoff = Math.max(
    pace.initialMs / 10,
    backoffDelay(situation.failures - 1, pace.initialMs, pace.maxMs, situation.random)
  )
  const waitMs = Math.round(asked === undefined ? backoff : Math.max(backoff, asked))
  // A request the rate limit refused did nothing: running the step again later is safe, and the
  // time to do it is the one the wait would have ended at.
  if (!kind.idempotent && failure.kind === 'http' && failure.status === 429) {
    const over = asked !== undefined && asked > left
    if (over || situation.failures >= MAX_ATTEMPTS || waitMs >= left) {
      const why = over
        ? `The server asks to wait ${formatDuration(asked)}, longer than the ` +
          `${formatDuration(Math.max(0, left))} left before this step's timeout, so the step ` +
          'stops now instead of sleeping into it.'
        : situation.failures >= MAX_ATTEMPTS
          ? `It was refused ${situation.failures} times.`
          : "The step's timeout leaves no time to wait and send it again."
      return {
        retry: false,
        error: new RateLimitError(
          `${error.message} ${why} ${kind.noEffect}: the platform refused the request. ` +
            `Try again after ${secondAfter(now + (over ? asked : waitMs))}.`
        )
      }
    }
    return { retry: true, waitMs }
  }

  if (asked !== undefined && asked > left) {
    return {
      retry: false,
      error: new DeadlineError(
        `${error.message} The server asks to wait ${formatDuration(asked)}, longer than the ` +
          `${formatDuration(Math.max(0, left))} left before this step's timeout, so the step ` +
          'stops now instead of sleeping into it.'
      )
    }
  }
  // Nothing is scheduled past the deadline: a read that has no time for another try stops here
  // rather than sending requests that cannot be answered in the time left.
  if (kind.idempotent && waitMs >= left) {
    return {
      retry: false,
      error: new DeadlineError(
        `${error.message} The step's timeout leaves no time to ${kind.action} again.`,
        'no-time',
        error
      )
    }
  }
  if (!kind.idempotent && (situation.failures >= MAX_ATTEMPTS || waitMs >= left)) {
    return {
      retry: false,
      error: new DeadlineError(
        `${error.message} ${kind.noEffect}; gave up after ${situation.failures} attempts` +
          (waitMs >= left ? " as the step's timeout leaves no time for another." : '.'),
        waitMs >= left ? 'no-time' : 'asked'
      )
    }
  }
  return { retry: true, waitMs }
}

/** Longest `Retry-After` taken at face value (a day); anything longer is treated as a day. */
export const MAX_RETRY_AFTER_MS = 86_400_000

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

// The three forms of an HTTP date (RFC 9110, section 5.6.7), which recipients must all accept:
// IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete RFC 850 form
// `Sunday, 06-Nov-94 08:49:37 GMT`, and asctime `Sun Nov  6 08:49:37 1994`.
const IMF_FIXDATE = /^[a-z]{3}, (\d{2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) gmt$/i
const RFC_850 = /^[a-z]{6,9}, (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) gmt$/i
const ASCTIME = /^[a-z]{3} ([a-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/i

/** Reads an HTTP date in any of its three forms; undefined when it is not one. */
function parseHttpDate(text: string, nowMs: number): number | undefined {
  let parts: [string, string, string, string, string, string] | undefined
  let match = IMF_FIXDATE.exec(text)
  if (match) parts = [match[3], match[2], match[1], match[4], match[5], match[6]] as typeof parts
  else if ((match = RFC_850.exec(text))) {
    // A two-digit year more than 50 years ahead is the most recent past year with those digits.
    const nowYear = new Date(nowMs).getUTCFullYear()
    let year = Math.floor(nowYear / 100) * 100 + Number(match[3])
    if (year > nowYear + 50) year -= 100
    parts = [String(year), match[2], match[1], match[4], match[5], match[6]] as typeof parts
  } else if ((match = ASCTIME.exec(text))) {
    parts = [match[6], match[1], match[2], match[3], match[4], match[5]] as typeof parts
  }
  if (!parts) return undefined
  const [year, monthName, day, hour, minute, second] = parts
  const month = MONTHS.indexOf(monthName.toLowerCase())
  if (month < 0) return undefined
  const at = Date.UTC(
    Number(year),
    month,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second)
  )
  return Number.isNaN(at) ? undefined : at
}

/**
 * Reads a `Retry-After` header: delay-seconds (`120`) or an HTTP date. Returns the wait in
 * milliseconds (0 for a date in the past), or undefined when the header is missing or not
 * understood.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number
): number | undefined {
  if (value === null || value === undefined) return undefined
  const text = value.trim()
  if (text === '') return undefined
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS)
  const at = parseHttpDate(text, nowMs)
  if (at === undefined) return undefined
  return Math.min(Math.max(0, at - nowMs), MAX_RETRY_AFTER_MS)
}
