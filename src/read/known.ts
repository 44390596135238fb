/**
 * What a run could learn, and what it could not: a value read, or an explicit `unknown` with the
 * reason. Nothing a run asked for is ever simply absent, so the decision cannot mistake "could
 * not be read" for "there is none". Pure.
 */
import { gitHubError } from '../github/api.js'

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

/**
 * What a GitHub read that failed leaves unknown: a refusal (401, 403, 404) or a request GitHub
 * would not take is the same on every run (the workflow's permissions, the token's reach), so the
 * run goes on as if it had not asked; anything else (a 5xx, no answer in time, a broken
 * connection, a rate limit, a garbled answer) may answer on a re-run, so it is a read that failed.
 */
export function causeOf(error: unknown): Unknown['cause'] {
  const kind = gitHubError(error).kind
  return kind === 'refused' || kind === 'invalid' ? 'not-asked' : 'failed'
}
