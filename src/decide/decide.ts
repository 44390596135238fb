/**
 * The decision: one pure function from the settings, the event and what the read stage learned to
 * the plan the run acts on. Each kind of run is one module, in one list; the first whose `applies`
 * holds decides, and a change to document takes whatever the others leave.
 */
import type { Settings } from '../inputs.js'
import type { Facts } from '../read/facts.js'
import { closedPull, conversationEvent, type Event } from '../trigger/event.js'
import { decideChange } from './change.js'
import { decideClosed } from './closed.js'
import { decideCommand } from './command.js'
import type { Plan } from './plan.js'

/** What the decision reads of the settings. */
export type DecisionSettings = Pick<Settings, 'agentAccounts' | 'jobId' | 'prompt' | 'projectId'>

export interface Kind {
  readonly name: string
  readonly applies: (event: Event | undefined) => boolean
  readonly decide: (settings: DecisionSettings, event: Event | undefined, facts: Facts) => Plan
}

/** The kinds of run, in the order they are tried. */
export const KINDS: readonly Kind[] = [
  {
    // On issue_comment, only a command does anything; a review event never does.
    name: 'command',
    applies: (event) => conversationEvent(event),
    decide: (settings, event, facts) =>
      event ? decideCommand(settings, event, facts) : decideChange(settings, event, facts)
  },
  {
    name: 'closed pull request',
    applies: (event) => event !== undefined && closedPull(event) !== undefined,
    decide: (settings, event, facts) =>
      event ? decideClosed(settings, event, facts) : decideChange(settings, event, facts)
  },
  { name: 'change', applies: () => true, decide: decideChange }
]

/** The kind of run an event starts. */
export function kindOf(event: Event | undefined, kinds: readonly Kind[] = KINDS): Kind {
  const kind = kinds.find((k) => k.applies(event))
  if (!kind) throw new Error('No kind of run applies to the event.')
  return kind
}

/** What the run does. */
export function decide(settings: DecisionSettings, event: Event | undefined, facts: Facts): Plan {
  return kindOf(event).decide(settings, event, facts)
}
