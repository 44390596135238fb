import type { Permission } from '../../clients/github/api.js'
import type { Knowable } from '../../run/read/known.js'
import type { Command } from './parse.js'

/** What a comment run read: no command, a `/docs` command, or one that no longer stands. */
export type CommandFacts =
  | Extract<Command, { kind: 'ignored' }>
  | (Extract<Command, { kind: 'command' }> & {
      readonly commentId?: number
      readonly permission: Knowable<Permission | undefined>
    })
  /** `answer`: the comment is still there to react to. */
  | {
      readonly kind: 'stopped'
      readonly login: string
      readonly commentId?: number
      readonly why: string
      readonly answer: boolean
    }
