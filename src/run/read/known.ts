/** An explicit `unknown`, so the decision cannot mistake "could not be read" for "none". */
import { gitHubError } from '../../clients/github/api.js'

export interface Unknown {
  readonly known: false
  readonly why: string
  /** `failed` may answer on a re-run; `not-asked` (no token, a refusal, a dry run) will not. */
  readonly cause: 'failed' | 'not-asked'
}

export type Knowable<T> = { readonly known: true; readonly value: T } | Unknown

export function known<T>(value: T): Knowable<T> {
  return { known: true, value }
}

export function unknown(why: string, cause: Unknown['cause'] = 'failed'): Unknown {
  return { known: false, why, cause }
}

/** A refusal or a request GitHub would not take is the same on every run: as if not asked. */
export function causeOf(error: unknown): Unknown['cause'] {
  const kind = gitHubError(error).kind
  return kind === 'refused' || kind === 'invalid' ? 'not-asked' : 'failed'
}
