/** The kinds of run, in the order tried: a change to document takes whatever the others leave. */
import { guarded } from '../run/decide/guard.js'
import type { DecisionSettings, Plan } from '../run/decide/plan.js'
import type { Facts } from '../run/read/facts.js'
import type { Event } from '../given/event.js'
import { change } from './change/kind.js'
import { closed } from './closed/kind.js'
import { command } from './command/kind.js'
import type { Kind } from './kind.js'
import { review } from './review/kind.js'

export type { Kind } from './kind.js'

export const KINDS: readonly Kind[] = [review, command, closed, change]

/** The kind of run an event starts. */
export function kindOf(event: Event | undefined, kinds: readonly Kind[] = KINDS): Kind {
  const kind = kinds.find((k) => k.detects(event))
  if (!kind) throw new Error('No kind of run applies to the event.')
  // Every kind decides behind the same guards: none can start a job they refuse.
  return { ...kind, decide: guarded(kind.decide) }
}

/** What the run does: its kind's decision. Pure. */
export function decide(
  settings: DecisionSettings,
  event: Event | undefined,
  facts: Facts,
  kinds: readonly Kind[] = KINDS
): Plan {
  return kindOf(event, kinds).decide(settings, event, facts)
}
