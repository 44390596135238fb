import { setTimeout as delay } from 'node:timers/promises'
import { cancellation } from './errors.js'

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

/** Runs a call within a signal of its own, settling when the call does or the signal aborts. */
export type Within = <T>(call: (signal: AbortSignal) => Promise<T>) => Promise<T>

/**
 * Bounds each call to `ms()` (read as it starts) and `parent`; with no time left it is not made.
 * Its signal aborts with a plain `AbortError` (Octokit retries a request failed for any other
 * reason), and its promise settles by then, whatever the work behind it still waits for.
 */
export function withinTime(ms: () => number, parent: AbortSignal): Within {
  return async (call) => {
    const left = ms()
    const limit = new AbortController()
    const { signal } = limit
    const abort = () => limit.abort()
    const timer = setTimeout(abort, Math.max(0, left))
    parent.addEventListener('abort', abort, { once: true })
    let onAbort = () => undefined as void
    try {
      if (left <= 0 || parent.aborted) abort()
      if (signal.aborted) throw cancellation(signal)
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(cancellation(signal))
        signal.addEventListener('abort', onAbort, { once: true })
      })
      return await Promise.race([call(signal), aborted])
    } finally {
      clearTimeout(timer)
      parent.removeEventListener('abort', abort)
      signal.removeEventListener('abort', onAbort)
    }
  }
}

/**
 * The last writes' time: each bounded by their budget (`by`); a write GitHub still holds waited
 * for until `heldBy`, the state after it written by `end`; a signal from the runner ends them all.
 */
export interface LastTime {
  readonly now: () => number
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>
  readonly until: (at: number) => Within
  readonly by: number
  readonly heldBy: number
  readonly end: number
  /** The last writes' budget, which a write sent after a held one is given again (up to `end`). */
  readonly lastMs: number
  readonly stop: AbortSignal
}
