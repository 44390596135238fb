/** A comment in a pull request's conversation: only a writer's `/docs` command does anything. */
import type { Kind } from '../kind.js'
import type { CommandFacts } from './facts.js'
import { decideChange } from '../change/decide.js'
import { decideCommand } from './decide.js'
import { readCommandRun } from './read.js'

export const command: Kind<CommandFacts> = {
  name: 'command',
  detects: (event) => event?.occasion === 'comment',
  read: readCommandRun,
  decide: (settings, event, facts) =>
    event ? decideCommand(settings, event, facts) : decideChange(settings, event, facts)
}
