/**
 * When to look at the job next: the pace of status checks, and the backoff after a failed request.
 * Pure functions of their arguments; the randomness is passed in.
 */

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

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0
}
