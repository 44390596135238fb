/**
 * What a run could learn, and what it could not: a value read, or an explicit `unknown` with the
 * reason. Nothing a run asked for is ever simply absent, so the decision cannot mistake "could
 * not be read" for "there is none". Pure.
 */

/** Why something is not known. */
export interface Unknown {
  readonly known: false
  /** For the log: what was asked and what went wrong. */
  readonly why: string
  /**
   * `failed`: the question was asked and not answered (an error, a timeout); `not-asked`: the run
   * had no way to ask (no token given, a token refused the permission, a dry run that sends
   * Mintlify nothing).
   */
  readonly cause: 'failed' | 'not-asked'
}

export type Knowable<T> = { readonly known: true; readonly value: T } | Unknown

export function known<T>(value: T): Knowable<T> {
  return { known: true, value }
}

export function unknown(why: string, cause: Unknown['cause'] = 'failed'): Unknown {
  return { known: false, why, cause }
}
