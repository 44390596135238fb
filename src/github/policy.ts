/**
 * How the action writes to GitHub, best effort: each call's budget (from the step's `timeout`),
 * one warning a surface, and no write repeated that may have landed. Nothing here fails the step.
 */
import { errorMessage } from '../errors.js'
import { gitHubError, type GitHubError } from './api.js'
import type { LastTime, Within, Log } from '../runtime.js'
import { forLog } from '../sanitize.js'

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

/** Each budget: at most `ms`, and at most `share` of the step's timeout, but never under 1 s. */
const BUDGETS: Record<keyof GitHubBudgets, { readonly ms: number; readonly share: number }> = {
  change: { ms: 15_000, share: 0.25 },
  lookup: { ms: 10_000, share: 0.2 },
  write: { ms: 10_000, share: 0.2 },
  last: { ms: 5_000, share: 0.1 }
}

/** The budgets of every GitHub call, for a step that may take `timeoutMs`. */
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

/**
 * One place the action reports to on GitHub (the status comment, a check, the docs pull request):
 * it warns once, and stops writing once GitHub refused a write for want of permission, since
 * every later write would be refused too.
 */
export class Surface {
  private warned = false
  refused = false
  private readonly log: Log
  private readonly consequence: string

  constructor(log: Log, consequence: string) {
    this.log = log
    this.consequence = consequence
  }

  /** Warns once for this surface; later failures go to the debug log. */
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

/**
 * Sends a create that is not idempotent once. When it may have landed (5xx, no answer), what
 * `look` finds is its result; any other failure is thrown.
 */
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
/** The pause before the first try again; it doubles after each. */
export const AGAIN_PAUSE_MS = 100

/** How long one try may take with `left` ms to go: all but what is kept for another try. */
export function tryShare(left: number): number {
  if (left < 2 * MIN_TRY_MS) return left
  return left - Math.min(Math.floor(left / 2), KEPT_FOR_AGAIN_MS)
}

/**
 * Bounds for a write safe to send again (a commit status, an edit of a comment): until `by`,
 * each try gets its `tryShare`, so a try GitHub holds leaves time for one more. After a 5xx, a
 * broken connection or a try cut short it is sent again after a pause; any other failure, a
 * signal from the runner or the end of the time, and the last failure is thrown.
 */
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

/**
 * Where a write made beside the polling stands: `held` (sent, no answer yet: GitHub may store it
 * at any moment), `answered` (GitHub stores nothing more of it) or `abandoned` (its bounds ran
 * out first: it may still be stored, and nobody will know when).
 */
type Standing = 'held' | 'answered' | 'abandoned'

interface BesideWrite {
  readonly standing: Standing
  /** Settles when the write does; it never rejects. */
  readonly done: Promise<void>
  readonly stop: AbortController
}

/**
 * The writes on one surface made beside the polling, and the last write, which GitHub must store
 * last. Stopping a request only stops waiting for it: GitHub stores a write it held whenever it
 * gets to it. When time runs out while one is held, the surface warns it may show an older state.
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
   * Starts `write`, bounded by `within` and stopped early by `stop` or `last`; `stopped` tells the
   * write that being stopped is not a failure to warn about. With `after`, it is sent only once
   * every earlier write was answered or given up, so it is stored after them.
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
   * The last write, stored by GitHub after every earlier one. While one is held, `alongside` (a
   * write that may be sent twice at once, as a commit status) sends it at once and again once the
   * held ones were answered; without it (a comment, which a held create would make twice) it
   * waits for them: within `longer.held` when given, then bounded by `longer.again()`.
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
    // Warned before the held writes are stopped, whose own failure then stays in the debug log;
    // a surface that was refused was not written at all.
    if (!this.surface.refused) this.surface.warn(this.heldWarning)
    for (const entry of held) entry.stop.abort()
    await Promise.all(held.map((entry) => entry.done))
    // An abandoned write cannot be waited for: the last state is still sent once, if time is left.
    if (!sent && answered) result = await write(after())
    return result
  }
}
