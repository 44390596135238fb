/** A kind of run is one folder in `src/kinds/<name>/`: how it is told, what it reads, its plan. */
import type { DecisionSettings, Plan } from '../run/decide/plan.js'
import type { Facts } from '../run/read/facts.js'
import type { Read, ReadContext } from '../run/read/read.js'
import type { Event } from '../given/event.js'

export interface Kind<K = unknown> {
  readonly name: string
  readonly detects: (event: Event | undefined) => boolean
  read(this: void, run: ReadContext): Promise<Read<K>>
  /** Pure: `facts.kind` is what its own read found. */
  decide(this: void, settings: DecisionSettings, event: Event | undefined, facts: Facts<K>): Plan
}
