/**
 * Everything the read stage learned about a run, in one value: the decision reads nothing else.
 * What a run asked for and could not learn is `unknown` (see `known.ts`), never left out.
 */
import type { CommitPull } from '../github/api.js'
import type { BranchRecord } from '../github/branch-record.js'
import type { Recorded } from '../github/companion.js'
import type { Phase } from '../mintlify/job.js'
import type { PreparedPrompt } from '../trigger/prompt.js'
import type { PullRef } from '../trigger/ref.js'
import type { Knowable } from './known.js'

/** The code pull request the change belongs to. */
export interface PullFacts {
  readonly number: number
  /** Its head commit, when known. */
  readonly headSha?: string
  /** Login of the account that opened it. */
  readonly author?: string
  /** It carries this action's backlink: it is a docs pull request the action follows. */
  readonly docsPull: boolean
  /** What its status comment records (`comment: auto`); known to be nothing otherwise. */
  readonly recorded: Knowable<Recorded | undefined>
}

/** The job a record names, as read just now. */
export interface JobFacts {
  readonly jobId: string
  /** Where the record is: the pull request's status comment, or the branch's docs check. */
  readonly from: 'pull' | 'branch'
  /** How far the job is. */
  readonly phase: Knowable<Phase>
  /** Its docs pull request's state: `none` when the job has no link (yet). */
  readonly docs: Knowable<'open' | 'merged' | 'closed' | 'none'>
  /** The docs pull request the job's link names, when it names one on this GitHub. */
  readonly docsRef?: PullRef
  /**
   * The record names a docs pull request for this job and the job's answer names another (or
   * one elsewhere): neither is written to, and nothing is started (`decide/guard.ts`).
   */
  readonly mismatch?: { readonly recorded: PullRef; readonly named: string }
}

/** The branch a run gathers on (`reuse-job`, `context: auto`, no `job-id`) and its record. */
export interface BranchFacts {
  readonly name: string
  /** The record the branch's docs check keeps; known to be none when the pull request has one. */
  readonly record: Knowable<BranchRecord | undefined>
}

export interface Facts<K = unknown> {
  /** What the run's kind read for itself (a comment's command), opaque to the core. */
  readonly kind?: K
  /**
   * The pull requests the change's commit belongs to: the event's own for a pull request event;
   * for a push, a schedule or a manual run, as GitHub lists them for the commit.
   */
  readonly pulls: Knowable<readonly CommitPull[]>
  /** The one pull request the change belongs to, when there is exactly one. */
  readonly pull?: PullFacts
  /** A run that gathers on a branch; left out for every other run. */
  readonly branch?: BranchFacts
  /** The job the pull request's comment (first) or the branch's record names, when one does. */
  readonly job?: JobFacts
  /**
   * The change, as the prompt tells it, when it was read before deciding (every run but one that
   * gathers on a branch, whose change starts where the decision says).
   */
  readonly prepared?: PreparedPrompt
}
