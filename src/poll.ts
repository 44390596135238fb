import { setTimeout as delay } from 'node:timers/promises'
import { formatDuration } from './duration.js'
import {
  ApiError,
  CancelledError,
  DeadlineError,
  UncertainCreateError,
  errorMessage
} from './errors.js'
import { classifyStatus, type Job, type Phase } from './job.js'
import { isRetryable, retryDelay } from './retry.js'
import { pollDelay, type PollPace } from './schedule.js'
import { quote } from './sanitize.js'

/** Longest a single request may take; a stalled connection must not eat the whole step. */
export const REQUEST_TIMEOUT_MS = 30_000

/** Quiet polls are summed up in one progress line at most this often. */
export const PROGRESS_EVERY_MS = 60_000

/** Attempts at creating a job when the server provably did not act on the earlier ones. */
export const MAX_CREATE_ATTEMPTS = 6

/** Consecutive failed polls from which each further failure is a warning rather than a log line. */
export const WARN_AFTER_FAILURES = 3

export interface Log {
  info(message: string): void
  warning(message: string): void
  debug(message: string): void
}

/** The clock, timer and randomness the loops run on; tests pass virtual ones. */
export interface Runtime {
  readonly now: () => number
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>
  readonly random: () => number
  readonly signal: AbortSignal
  readonly log: Log
}

export interface Schedule extends PollPace {
  /** When the step must end, on the `now()` clock. */
  readonly deadline: number
}

/** Sleeps on the real clock; rejects with the signal's reason when it is aborted. */
export async function realSleep(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal })
  } catch (error: unknown) {
    throw signal.aborted ? cancelReason(signal) : error
  }
}

/**
 * Starts the job, retrying only where no job can have been created (see `isRetryable`). A create
 * that may have reached the server fails with a message that says so, never with a second POST.
 */
export async function createJob(
  create: (timeoutMs: number, signal: AbortSignal) => Promise<Job>,
  schedule: Schedule,
  runtime: Runtime
): Promise<Job> {
  for (let attempt = 0; ; attempt++) {
    throwIfCancelled(runtime.signal)
    try {
      return await create(requestTimeout(schedule, runtime), runtime.signal)
    } catch (error: unknown) {
      if (!(error instanceof ApiError)) throw error
      const { failure } = error
      if (!isRetryable('create', failure)) {
        const mayExist =
          (failure.kind === 'network' && failure.sent) ||
          failure.kind === 'invalid-response' ||
          (failure.kind === 'http' && failure.status >= 500)
        throw mayExist ? new UncertainCreateError(error.message) : error
      }
      const wait = Math.round(
        retryDelay(failure, attempt, schedule.initialMs, schedule.maxMs, runtime.random)
      )
      const left = schedule.deadline - runtime.now()
      const asked = failure.kind === 'http' ? failure.retryAfterMs : undefined
      if (asked !== undefined && asked > left) throw tooLate(error, asked, left, runtime.now())
      if (attempt + 1 >= MAX_CREATE_ATTEMPTS || wait >= left) {
        throw new DeadlineError(
          `${error.message} No job was created; gave up after ${attempt + 1} attempts` +
            (wait >= left ? " as the step's timeout leaves no time for another." : '.')
        )
      }
      runtime.log.warning(
        `${error.message} No job was created; trying again in ${formatDuration(wait)}.`
      )
      await runtime.sleep(wait, runtime.signal)
    }
  }
}

export type WaitResult =
  | { readonly kind: 'finished'; readonly job: Job; readonly phase: Exclude<Phase, 'running'> }
  | { readonly kind: 'timeout'; readonly job: Job }

/**
 * Polls the job until it reaches a terminal status or the deadline passes. Transient failures are
 * retried with backoff; a failure that polling again cannot fix (401, 403, 404, a redirect) ends the
 * wait at once. `onJob` sees every job record read, so the caller always holds the latest.
 */
export async function waitForJob(
  first: Job,
  getJob: (timeoutMs: number, signal: AbortSignal) => Promise<Job>,
  schedule: Schedule,
  runtime: Runtime,
  onJob: (job: Job) => void = () => undefined
): Promise<WaitResult> {
  const { log, now } = runtime
  const started = now()
  const unknownStatuses = new Set<string>()
  let job = first
  let polls = 0
  let failures = 0
  let wait = pollDelay(0, schedule, runtime.random)
  let lastLine = started
  let lastStatus = first.status

  const phaseOf = (current: Job): Phase => {
    const { phase, known } = classifyStatus(current.status)
    const status = current.status ?? '(none)'
    if (!known && !unknownStatuses.has(status)) {
      unknownStatuses.add(status)
      log.warning(
        `The job reported a status this action does not know, "${quote(status, 60)}"; ` +
          'treating it as still running.'
      )
    }
    return phase
  }

  let phase = phaseOf(job)
  while (phase === 'running') {
    const left = schedule.deadline - now()
    if (left <= 0) return { kind: 'timeout', job }
    await runtime.sleep(Math.round(Math.min(wait, left)), runtime.signal)
    if (now() >= schedule.deadline) return { kind: 'timeout', job }

    try {
      job = await getJob(requestTimeout(schedule, runtime), runtime.signal)
    } catch (error: unknown) {
      if (!(error instanceof ApiError) || !isRetryable('poll', error.failure)) throw error
      failures++
      wait = retryDelay(
        error.failure,
        failures - 1,
        schedule.initialMs,
        schedule.maxMs,
        runtime.random
      )
      const timeLeft = schedule.deadline - now()
      if (error.failure.kind === 'http' && (error.failure.retryAfterMs ?? 0) > timeLeft) {
        throw tooLate(error, error.failure.retryAfterMs ?? 0, timeLeft, now())
      }
      const line =
        `Checking the job failed (${failures} in a row): ${errorMessage(error)} ` +
        `Trying again in ${formatDuration(Math.min(wait, Math.max(0, timeLeft)))}.`
      if (failures >= WARN_AFTER_FAILURES) log.warning(line)
      else log.info(line)
      lastLine = now()
      continue
    }

    failures = 0
    polls++
    wait = pollDelay(polls, schedule, runtime.random)
    onJob(job)
    phase = phaseOf(job)
    const elapsed = formatDuration(now() - started)
    if (job.status !== lastStatus) {
      log.info(`Job status: ${quote(job.status ?? '(none)', 60)} (after ${elapsed}).`)
      lastStatus = job.status
      lastLine = now()
    } else if (now() - lastLine >= PROGRESS_EVERY_MS) {
      log.info(
        `Still ${quote(job.status ?? 'running', 60)} after ${elapsed} (${polls} checks so far).`
      )
      lastLine = now()
    } else {
      log.debug(`Poll ${polls}: status ${quote(job.status ?? '(none)', 60)} after ${elapsed}.`)
    }
  }
  return { kind: 'finished', job, phase }
}

function requestTimeout(schedule: Schedule, runtime: Runtime): number {
  return Math.max(1, Math.min(REQUEST_TIMEOUT_MS, schedule.deadline - runtime.now()))
}

function tooLate(error: ApiError, wait: number, left: number, now: number): DeadlineError {
  const retryAt = new Date(Math.ceil((now + wait) / 1000) * 1000)
    .toISOString()
    .replace('.000Z', 'Z')
  return new DeadlineError(
    `${error.message} The server asks to wait ${formatDuration(wait)}, longer than the ` +
      `${formatDuration(Math.max(0, left))} left before this step's timeout, so the step stops ` +
      `now instead of sleeping into it. Try again after ${retryAt}.`
  )
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw cancelReason(signal)
}

function cancelReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason
  return reason instanceof Error ? reason : new CancelledError('The step was cancelled.')
}
