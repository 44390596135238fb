/** The read stage's shape; each kind reads no more than its decision may need. */
import type { Companion } from '../../clients/github/companion.js'
import type { DocsReaders } from '../../clients/github/docs-pull.js'
import type { Settings } from '../../given/inputs.js'
import type { MintlifyApi } from '../../clients/mintlify/api.js'
import type { Step } from '../step.js'
import type { Event } from '../../given/event.js'
import type { Facts } from './facts.js'

export interface Read<K = unknown> {
  readonly facts: Facts<K>
  /** The code pull request's status comment, for the sinks (`comment: auto`). */
  readonly companion?: Companion
  /** When reading changed it: a command's pull request, now with its head commit. */
  readonly event?: Event
}

/** What a kind's read is given. `context` is the docs check's name, which keeps a branch's record. */
export interface ReadContext {
  readonly settings: Settings
  readonly event: Event | undefined
  readonly readers: DocsReaders
  /** Undefined on a dry run, which reads no job. */
  readonly api: MintlifyApi | undefined
  readonly step: Step
  readonly context: string
}
