/** When to look at the job next, and how long to back off after a failed request. Pure. */

/** Each wait between polls is this many times the one before, up to the maximum. */
export const POLL_GROWTH = 1.5

/** A poll comes up to this fraction of its wait early, never late. */
export const POLL_JITTER = 0.1

export interface PollPace {
  /** First wait between polls (`poll-interval`). */
  readonly initialMs: number
  /** Longest wait between polls (`max-poll-interval`). */
  readonly maxMs: number
}

/**
 * The wait after `polls` answered polls: ×1.5 from the first interval to the maximum, shortened by
 * jitter so runs started together drift apart, never lengthened past `maxMs`.
 */
export function pollDelay(polls: number, pace: PollPace, random: () => number): number {
  const scheduled = Math.min(pace.maxMs, pace.initialMs * POLL_GROWTH ** Math.max(0, polls))
  return scheduled * (1 - POLL_JITTER * clamp01(random()))
}

/** Full-jitter backoff for the `attempt`-th retry in a row (0 first): 0 to cap or base × 2^n. */
export function backoffDelay(
  attempt: number,
  baseMs: number,
  capMs: number,
  random: () => number
): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempt)) * clamp01(random())
}

/** The backoff after `failures` in a row, at least a tenth of the interval: jitter may draw 0. */
export function retryDelay(failures: number, pace: PollPace, random: () => number): number {
  return Math.max(
    pace.initialMs / 10,
    backoffDelay(failures - 1, pace.initialMs, pace.maxMs, random)
  )
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0
}
