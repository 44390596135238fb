/** The loops: one request until it succeeds or the policy stops it, and waiting for a job. */
import { formatDuration } from '../../base/duration.js'
import { ApiError, DeadlineError, cancellation, errorMessage } from '../../base/errors.js'
import { classifyStatus, mergeJob, type Job, type Phase } from './job.js'
import { READ, decide, type RequestKind, type Situation } from './policy.js'
import type { Runtime } from '../../base/runtime.js'
import { forLog } from '../../base/sanitize.js'
import { pollDelay, type PollPace } from './schedule.js'

/** Longest a single request may take; a stalled connection must not eat the whole step. */
export const REQUEST_TIMEOUT_MS = 30_000

/** The most time kept before the deadline for the last look at the job, however long the wait. */
export const FINAL_CHECK_MS = 5_000

/** When the last look is made: before the deadline by 5% of the wait, at most `FINAL_CHECK_MS`. */
export function lastCheckAt(started: number, deadline: number): number {
  return deadline - Math.ceil(Math.min(FINAL_CHECK_MS, Math.max(0, deadline - started) * 0.05))
}

/** Quiet polls are summed up in one progress line at most this often. */
export const PROGRESS_EVERY_MS = 60_000

/** After a follow-up message, how long a terminal status that may predate it is waited out. */
export const STALE_GRACE_MS = 60_000

/** Failed polls in a row that make one warning; the first is logged, the others only in debug. */
export const WARN_AFTER_FAILURES = 3

export interface Schedule extends PollPace {
  /** When the step must end, on the `now()` clock. */
  readonly deadline: number
}

/** One request, given the time it may take and the signal that cancels it. */
export type Call<T> = (timeoutMs: number, signal: AbortSignal) => Promise<T>

/** The time one request may take: its own limit, and no later than `until` (the deadline). */
export function requestTimeout(runtime: Runtime, until: number): number {
  return Math.max(1, Math.min(REQUEST_TIMEOUT_MS, until - runtime.now()))
}

/** Where the `failures`-th failed request in a row stands, for the request policy. */
export function situation(failures: number, schedule: Schedule, runtime: Runtime): Situation {
  const { deadline } = schedule
  return { failures, now: runtime.now(), deadline, pace: schedule, random: runtime.random }
}

/** Sends a request of `kind` until it succeeds, repeating it only as the request policy allows. */
export async function send<T>(
  kind: RequestKind,
  call: Call<T>,
  schedule: Schedule,
  runtime: Runtime
): Promise<T> {
  for (let failures = 1; ; failures++) {
    if (runtime.signal.aborted) throw cancellation(runtime.signal)
    if (runtime.now() >= schedule.deadline) {
      throw new DeadlineError(
        `The step's timeout came before the request to ${kind.action} could be sent` +
          (failures > 1 ? ` again after ${failures - 1} failed attempts.` : '.'),
        'no-time'
      )
    }
    try {
      const answer = await call(requestTimeout(runtime, schedule.deadline), runtime.signal)
      if (failures > 1)
        runtime.log.info(`The request to ${kind.action} went through on attempt ${failures}.`)
      return answer
    } catch (error: unknown) {
      if (!(error instanceof ApiError)) throw error
      const decision = decide(kind, error, situation(failures, schedule, runtime))
      if (!decision.retry) throw decision.error
      const again = formatDuration(decision.waitMs)
      if (failures === 1) {
        runtime.log.warning(`${error.message} ${kind.noEffect}; trying again in ${again}.`)
      } else {
        runtime.log.debug(
          `Attempt ${failures} to ${kind.action} failed: ${error.message} Trying again in ${again}.`
        )
      }
      await runtime.sleep(decision.waitMs, runtime.signal)
    }
  }
}

interface WaitOptions {
  /** Sees the job as known after each answer, so the caller always holds the latest. */
  readonly onJob?: (job: Job) => void
  /**
   * After a message a read may still show the status from before it (a job has no `updatedAt`):
   * a terminal status counts once the job was seen `active`, or after `STALE_GRACE_MS` of it.
   */
  readonly afterMessage?: boolean
}

type WaitResult =
  | { readonly kind: 'finished'; readonly job: Job; readonly phase: Exclude<Phase, 'running'> }
  | { readonly kind: 'timeout'; readonly job: Job }

/**
 * Polls the job until it ends or the deadline passes. A poll that would fall after `lastCheckAt`
 * is made then instead, as the last, so a job that ends before it is seen to end.
 */
export async function waitForJob(
  first: Job,
  getJob: Call<Job>,
  schedule: Schedule,
  runtime: Runtime,
  options: WaitOptions = {}
): Promise<WaitResult> {
  const { log, now } = runtime
  const started = now()
  const lastAt = lastCheckAt(started, schedule.deadline)
  const unknownStatuses = new Set<string>()
  let job = first
  let polls = 0
  let failures = 0
  let wait = pollDelay(0, schedule, runtime.random)
  let lastLine = started
  let lastStatus = first.status
  let final = false
  let seenActive = !options.afterMessage || classifyStatus(first.status).phase === 'running'
  let staleSince: number | undefined

  const phaseOf = (current: Job): Phase => {
    const { phase, known } = classifyStatus(current.status)
    const status = current.status ?? '(none)'
    if (!known && !unknownStatuses.has(status)) {
      unknownStatuses.add(status)
      log.warning(
        `The job reported a status this action does not know, "${forLog(status, 60)}"; ` +
          'treating it as still running.'
      )
    }
    if (phase === 'running' || seenActive) {
      seenActive = true
      return phase
    }
    staleSince ??= now()
    if (now() - staleSince < STALE_GRACE_MS) {
      log.debug(
        `Status ${forLog(status, 60)} may date from before the message; waiting for the job to ` +
          'show it is working on it.'
      )
      return 'running'
    }
    log.info(
      `The job has shown ${forLog(status, 60)} for ${formatDuration(STALE_GRACE_MS)} since the ` +
        'message without showing it was working on it; taking that as its status.'
    )
    return phase
  }

  let phase = phaseOf(job)
  while (phase === 'running') {
    if (final) return { kind: 'timeout', job }
    if (now() + wait >= lastAt) {
      wait = Math.max(0, lastAt - now())
      final = true
    }
    await runtime.sleep(Math.round(wait), runtime.signal)
    if (schedule.deadline - now() <= 0) return { kind: 'timeout', job }

    let latest: Job
    try {
      // A regular poll that hangs must not take the last look's place.
      latest = await getJob(
        requestTimeout(runtime, final ? schedule.deadline : lastAt),
        runtime.signal
      )
    } catch (error: unknown) {
      if (!(error instanceof ApiError)) throw error
      failures++
      if (final) {
        log.warning(`The last check before the timeout failed: ${errorMessage(error)}`)
        continue
      }
      const decision = decide(READ, error, situation(failures, schedule, runtime))
      // No time for another regular try: the last look is the next one.
      const noTime =
        !decision.retry &&
        decision.error instanceof DeadlineError &&
        decision.error.why === 'no-time'
      if (!decision.retry && !noTime) throw decision.error
      wait = decision.retry ? decision.waitMs : Math.max(0, lastAt - now())
      const line =
        `Checking the job failed (${failures} in a row): ${errorMessage(error)} ` +
        `Trying again in ${formatDuration(Math.min(wait, Math.max(0, lastAt - now())))}.`
      if (failures === WARN_AFTER_FAILURES) {
        log.warning(`${line} Further failures in a row are logged only in debug.`)
      } else if (failures === 1) log.info(line)
      else log.debug(line)
      lastLine = now()
      continue
    }

    if (failures > 1) log.info(`Checking the job works again after ${failures} failures in a row.`)
    failures = 0
    polls++
    wait = pollDelay(polls, schedule, runtime.random)
    job = mergeJob(job, latest)
    options.onJob?.(job)
    phase = phaseOf(job)
    const elapsed = formatDuration(now() - started)
    const status = forLog(job.status ?? '(none)', 60)
    if (job.status !== lastStatus) {
      log.info(`Job status: ${status} (after ${elapsed}).`)
      lastStatus = job.status
      lastLine = now()
    } else if (now() - lastLine >= PROGRESS_EVERY_MS) {
      log.info(
        `Still ${forLog(job.status ?? 'running', 60)} after ${elapsed} (${polls} checks so far).`
      )
      lastLine = now()
    } else {
      log.debug(`Poll ${polls}: status ${status} after ${elapsed}.`)
    }
  }
  return { kind: 'finished', job, phase }
}
