/** Best-effort GitHub writes: none fails the step, none that may have landed is sent twice. */
import { errorMessage } from '../../base/errors.js'
import { gitHubError, type GitHubError } from './api.js'
import type { LastTime, Within, Log } from '../../base/runtime.js'
import { forLog } from '../../base/sanitize.js'

/** How long each kind of GitHub call may take, in milliseconds. */
export interface GitHubBudgets {
  /** Reading the change for the prompt and `paths`, all requests together. */
  readonly change: number
  /** Learning the token's account, the pull request and its status comment, all together. */
  readonly lookup: number
  /** One write while the job runs (a start comment, a pending check); it never delays polling. */
  readonly write: number
  /** Everything written after the job ended, even past the deadline or after a cancellation. */
  readonly last: number
}

const BUDGETS: Record<keyof GitHubBudgets, { readonly ms: number; readonly share: number }> = {
  change: { ms: 15_000, share: 0.25 },
  lookup: { ms: 10_000, share: 0.2 },
  write: { ms: 10_000, share: 0.2 },
  last: { ms: 5_000, share: 0.1 }
}

/** Each budget: at most `ms` and at most `share` of the step's `timeoutMs`, never under 1 s. */
export function budgetsFor(timeoutMs: number): GitHubBudgets {
  const of = ({ ms, share }: { ms: number; share: number }) =>
    Math.max(1_000, Math.min(ms, Math.floor(timeoutMs * share)))
  return {
    change: of(BUDGETS.change),
    lookup: of(BUDGETS.lookup),
    write: of(BUDGETS.write),
    last: of(BUDGETS.last)
  }
}

/** A place the action reports to: it warns once, and after a refusal stops (all would be). */
export class Surface {
  private warned = false
  refused = false
  private readonly log: Log
  private readonly consequence: string

  constructor(log: Log, consequence: string) {
    this.log = log
    this.consequence = consequence
  }

  warn(message: string): void {
    if (this.warned) return this.log.debug(message)
    this.warned = true
    this.log.warning(`${message} ${this.consequence}`.trim())
  }

  /** Runs a write unless one was refused; undefined when it did not succeed. */
  async write<T>(describe: (error: GitHubError) => string, call: () => Promise<T>) {
    if (this.refused) return undefined
    try {
      return await call()
    } catch (error: unknown) {
      const failure = gitHubError(error)
      this.log.debug(`GitHub write failed: ${forLog(errorMessage(error), 300)}`)
      if (failure.kind === 'refused') this.refused = true
      this.warn(describe(failure))
      return undefined
    }
  }
}

/** Sends a non-idempotent create once; if it may have landed, what `look` finds is its result. */
export async function createOnce<T>(
  create: () => Promise<T>,
  look: () => Promise<T | undefined>
): Promise<T> {
  try {
    return await create()
  } catch (error: unknown) {
    const failure = gitHubError(error)
    if (!failure.mayHaveLanded) throw failure
    const found = await look().catch(() => undefined)
    if (found !== undefined) return found
    throw failure
  }
}

/** No try of a write sent again is given less than this, unless less is left. */
export const MIN_TRY_MS = 250
/** The most time a try leaves for the next one: a slow answer is rarer than a lost one. */
export const KEPT_FOR_AGAIN_MS = 1_000
export const AGAIN_PAUSE_MS = 100

/** How long one try may take with `left` ms to go: all but what is kept for another try. */
export function tryShare(left: number): number {
  if (left < 2 * MIN_TRY_MS) return left
  return left - Math.min(Math.floor(left / 2), KEPT_FOR_AGAIN_MS)
}

/** Bounds for a write safe to repeat until `by`: a try that may not have landed is sent again. */
export function sendingAgain(
  time: Pick<LastTime, 'now' | 'sleep' | 'until' | 'stop'>,
  by: number
): Within {
  return async (call) => {
    for (let tries = 0; ; tries++) {
      try {
        return await time.until(time.now() + tryShare(by - time.now()))(call)
      } catch (error: unknown) {
        const pause = AGAIN_PAUSE_MS * 2 ** Math.min(tries, 5)
        const enough = by - time.now() - pause > 0
        if (!gitHubError(error).mayHaveLanded || time.stop.aborted || !enough) throw error
        await time.sleep(pause, time.stop).catch(() => {
          throw error
        })
      }
    }
  }
}

/** `held`: GitHub may store it any moment; `abandoned`: cut short, it may still be stored, unseen. */
type Standing = 'held' | 'answered' | 'abandoned'

interface BesideWrite {
  readonly standing: Standing
  /** Settles when the write does; it never rejects. */
  readonly done: Promise<void>
  readonly stop: AbortController
}

/**
 * The writes on one surface made beside the polling, and the last write, which GitHub must store
 * last. Stopping a request only stops waiting: GitHub still stores a write it held.
 */
export class Beside {
  private writes: BesideWrite[] = []
  private readonly surface: Surface
  private readonly heldWarning: string

  constructor(surface: Surface, heldWarning: string) {
    this.surface = surface
    this.heldWarning = heldWarning
  }

  /**
   * Starts `write`; `stopped` tells it being stopped is no failure to warn about. With `after`, it
   * is sent once every earlier write was answered or given up, so it is stored after them.
   */
  start(
    write: (within: Within, stopped: AbortSignal) => Promise<unknown>,
    within: (stop: AbortSignal) => Within,
    after = false
  ): void {
    const earlier = after ? Promise.all(this.writes.map((entry) => entry.done)) : undefined
    const stop = new AbortController()
    const bounds = within(stop.signal)
    let cut = false
    // A call its bounds cut short got no answer: GitHub may still store what it sent.
    const watched: Within = (call) => {
      let signal: AbortSignal | undefined
      return bounds((given) => {
        signal = given
        return call(given)
      }).catch((error: unknown) => {
        if (signal?.aborted) cut = true
        throw error
      })
    }
    let standing: Standing = 'held'
    const sent = earlier
      ? earlier.then(() => (stop.signal.aborted ? undefined : write(watched, stop.signal)))
      : write(watched, stop.signal)
    const done = sent
      .then(
        () => undefined,
        () => undefined
      )
      .then(() => void (standing = cut ? 'abandoned' : 'answered'))
    this.writes.push({
      done,
      stop,
      get standing() {
        return standing
      }
    })
  }

  /** No last write follows: the writes under way are stopped, not waited for. */
  stop(): void {
    for (const entry of this.writes.splice(0)) entry.stop.abort()
  }

  /**
   * The last write, stored after every earlier one. While one is held, `alongside` (a status) sends
   * it now and again once they are answered; else (a held create would make a comment twice) it
   * waits for them within `longer.held`, then is bounded by `longer.again()`.
   */
  async last<T>(
    write: (within: Within) => Promise<T>,
    within: Within,
    alongside: boolean,
    longer?: { readonly held: Within; readonly again: () => Within }
  ): Promise<T | undefined> {
    const earlier = this.writes.splice(0)
    const open = earlier.filter((entry) => entry.standing !== 'answered')
    if (open.length === 0) return write(within)
    let result: T | undefined
    let sent = false
    if (alongside) {
      result = await write(within)
      sent = true
    }
    const held = open.filter((entry) => entry.standing === 'held')
    const answered = await (longer?.held ?? within)(() =>
      Promise.all(held.map((entry) => entry.done))
    ).then(
      () => true,
      () => false
    )
    const after = () => (longer ? longer.again() : within)
    if (answered && open.every((entry) => entry.standing === 'answered')) return write(after())
    // Warned first, so the held writes' own failures stay in the debug log.
    if (!this.surface.refused) this.surface.warn(this.heldWarning)
    for (const entry of held) entry.stop.abort()
    await Promise.all(held.map((entry) => entry.done))
    // An abandoned write cannot be waited for: the last state is still sent once, if time is left.
    if (!sent && answered) result = await write(after())
    return result
  }
}
