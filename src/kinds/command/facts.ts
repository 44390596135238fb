import type { Permission } from '../../github/api.js'
import type { Knowable } from '../../read/known.js'

/**
 * A run started by a comment (`issue_comment`): no command, with why; or a `/docs` command, with
 * the reviewer's request and what GitHub says they may do (unknown when it could not be read).
 */
export type CommandFacts =
  | { readonly kind: 'ignored'; readonly why: string }
  | {
      readonly kind: 'command'
      readonly request: string
      readonly login: string
      /** The comment's id, which the acknowledgements react to. */
      readonly commentId?: number
      readonly permission: Knowable<Permission | undefined>
    }
  /**
   * A writer's `/docs` that is not carried out, with why: its comment was deleted or edited
   * since, its pull request is closed, its head moved after the comment, or what decides that
   * could not be read. `answer`: the comment is still there to react to.
   */
  | {
      readonly kind: 'stopped'
      readonly login: string
      readonly commentId?: number
      readonly why: string
      readonly answer: boolean
    }
