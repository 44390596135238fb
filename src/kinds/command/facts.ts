import type { Permission } from '../../github/api.js'
import type { Knowable } from '../../read/known.js'

/** What a comment run read: no command, a `/docs` command, or one that no longer stands. */
export type CommandFacts =
  | { readonly kind: 'ignored'; readonly why: string }
  | {
      readonly kind: 'command'
      readonly request: string
      readonly login: string
      readonly commentId?: number
      readonly permission: Knowable<Permission | undefined>
    }
  /** `answer`: the comment is still there to react to. */
  | {
      readonly kind: 'stopped'
      readonly login: string
      readonly commentId?: number
      readonly why: string
      readonly answer: boolean
    }
