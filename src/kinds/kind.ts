/**
 * A kind of run (a `/docs` command, a closed pull request, a change to document, …) is one
 * module in `src/kinds/<name>/`: how it is told from the event, what it reads, how it decides
 * (its plan names its effects, which are the places it writes on GitHub). The registry
 * (`registry.ts`) lists them; the run consults it once.
 */
import type { DecisionSettings, Plan } from '../decide/plan.js'
import type { Facts } from '../read/facts.js'
import type { Read, ReadContext } from '../read/read.js'
import type { Event } from '../trigger/event.js'

export interface Kind<K = unknown> {
  /** Its name, for the log and the tests. */
  readonly name: string
  /** Whether a run is of this kind, from the event as it was parsed once. Pure. */
  readonly detects: (event: Event | undefined) => boolean
  /** What the run learns before it decides, bounded by the step's budgets. */
  read(this: void, run: ReadContext): Promise<Read<K>>
  /** What the run does, from what it read (`facts.kind` is its own). Pure. */
  decide(this: void, settings: DecisionSettings, event: Event | undefined, facts: Facts<K>): Plan
}
