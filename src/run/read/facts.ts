/** All the read stage learned about a run, in one value: the decision reads nothing else. */
import type { CommitPull } from '../../clients/github/api.js'
import type { BranchRecord } from '../../clients/github/branch-record.js'
import type { Recorded } from '../../clients/github/companion.js'
import type { Phase } from '../../clients/mintlify/job.js'
import type { PreparedPrompt } from '../change/prompt.js'
import type { PullRef } from '../../given/ref.js'
import type { Knowable } from './known.js'

/** The code pull request the change belongs to. */
export interface PullFacts {
  readonly number: number
  readonly headSha?: string
  readonly author?: string
  /** It carries this action's backlink: it is a docs pull request the action follows. */
  readonly docsPull: boolean
  /** Known to be nothing unless `comment: auto`. */
  readonly recorded: Knowable<Recorded | undefined>
}

/** The job a record names, as read just now. */
export interface JobFacts {
  readonly jobId: string
  /** The pull request's status comment, or the branch's docs check. */
  readonly from: 'pull' | 'branch'
  readonly phase: Knowable<Phase>
  /** `none` while the job has no docs pull request link. */
  readonly docs: Knowable<'open' | 'merged' | 'closed' | 'none'>
  readonly docsRef?: PullRef
  /** The record and the job's answer name different docs pull requests: neither is trusted. */
  readonly mismatch?: { readonly recorded: PullRef; readonly named: string }
}

/** The branch a run gathers on (`reuse-job`, `context: auto`, no `job-id`) and its record. */
export interface BranchFacts {
  readonly name: string
  /** Known to be none when the pull request keeps the record. */
  readonly record: Knowable<BranchRecord | undefined>
}

/** What the decision is given; `K` is what the run's kind read for itself, opaque to the core. */
export interface Facts<K = unknown> {
  readonly kind?: K
  /** The event's own pull request, or those GitHub lists for the pushed commit. */
  readonly pulls: Knowable<readonly CommitPull[]>
  /** Only when there is exactly one. */
  readonly pull?: PullFacts
  readonly branch?: BranchFacts
  /** The one the pull request's comment names, else the branch's record. */
  readonly job?: JobFacts
  /** Absent for a run that gathers on a branch, whose change starts where the decision says. */
  readonly prepared?: PreparedPrompt
}
