import { setTimeout as delay } from 'node:timers/promises'
import { cancellation } from './errors.js'

/** Where the loops write what they are doing; the reporter is the real one. */
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

/** Sleeps on the real clock; rejects with the signal's reason when it is aborted. */
export async function realSleep(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal })
  } catch (error: unknown) {
    throw signal.aborted ? cancellation(signal) : error
  }
}

/**
 * Settles with `promise`, or rejects with the signal's reason as soon as `signal` aborts, even when
 * the work behind the promise (a library's own retry timer) cannot be interrupted.
 */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) throw cancellation(signal)
  let onAbort = () => undefined as void
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(cancellation(signal))
    signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    return await Promise.race([promise, aborted])
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/**
 * A signal that aborts after `ms`, or when `parent` does, always with a plain `AbortError`:
 * Octokit repeats a request that failed with any other reason (a timeout's `TimeoutError`, our
 * `CancelledError`), which would keep the step alive through its retry waits. Call `release` when
 * done with it.
 */
function abortAfter(
  ms: number,
  parent: AbortSignal
): { signal: AbortSignal; abort(): void; release(): void } {
  const controller = new AbortController()
  const abort = () => controller.abort()
  const timer = setTimeout(abort, ms)
  parent.addEventListener('abort', abort, { once: true })
  if (parent.aborted) abort()
  return {
    signal: controller.signal,
    abort,
    release() {
      clearTimeout(timer)
      parent.removeEventListener('abort', abort)
    }
  }
}

/** Runs a call within a signal of its own, settling when the call does or the signal aborts. */
export type Within = <T>(call: (signal: AbortSignal) => Promise<T>) => Promise<T>

/**
 * Bounds each call to `ms()` milliseconds (read when the call starts) and to `parent`: the call is
 * handed a signal that aborts with a plain `AbortError` (see `abortAfter`), and its promise settles
 * no later than that, whatever the work behind it still waits for. A call with no time left is
 * never made: it fails at once as a call cut short, so nothing is sent past a budget's end.
 */
export function withinTime(ms: () => number, parent: AbortSignal): Within {
  return async (call) => {
    const left = ms()
    const limit = abortAfter(Math.max(0, left), parent)
    try {
      if (left <= 0) limit.abort()
      if (limit.signal.aborted) throw cancellation(limit.signal)
      return await untilAborted(call(limit.signal), limit.signal)
    } finally {
      limit.release()
    }
  }
}

/**
 * The last writes' time on the run's clock: each write is bounded by their budget (`by`); a write
 * GitHub still holds may be waited for through the rest of the timeout (`heldBy`), and the final
 * state written after it until the step's own end (`end`). A signal from the runner (`stop`) ends
 * them all at once.
 */
export interface LastTime {
  readonly now: () => number
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>
  /** Bounds calls to `at` on the run's clock, and to `stop`. */
  readonly until: (at: number) => Within
  readonly by: number
  readonly heldBy: number
  readonly end: number
  /** The last writes' budget, which a write sent after a held one is given again (up to `end`). */
  readonly lastMs: number
  readonly stop: AbortSignal
}
