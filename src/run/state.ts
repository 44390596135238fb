/** The run's state: the act stage keeps it as the job goes; sinks read it and never change it. */
import type { DocsChecks } from '../clients/github/docs-checks.js'
import type { DocsPull } from '../clients/github/docs-pull.js'
import type { DocsPushes } from '../clients/github/docs-pushes.js'
import { classifyStatus, type Job } from '../clients/mintlify/job.js'
import type { PreviewCause } from '../clients/mintlify/preview.js'
import type { Event } from '../given/event.js'
import type { CommitRef, PullRef } from '../given/ref.js'

/** What the run knows of its preview, for every sink. */
export interface Preview {
  readonly state:
    | 'would-request'
    /** Requested and not seen to end (queued, in progress, or not read before the deadline). */
    | 'building'
    | 'ready'
    | 'failed'
    | 'not-requested'
    | 'uncertain'
    /** The docs pull request's head is the commit the last preview was requested for. */
    | 'unchanged'
  readonly branch?: string
  readonly url?: string
  readonly urlRefused?: boolean
  /** The platform's summary of a failed build. */
  readonly summary?: string
  readonly cause?: PreviewCause
  /** The docs pull request's head commit the preview is of (`unchanged`: the earlier one). */
  readonly sha?: string
}

export type Mode = 'create' | 'follow-up' | 'attach'

export type Outcome =
  | { readonly kind: 'running' }
  /** wait: false; the job was started, given the message, or read once. */
  | { readonly kind: 'started'; readonly mode: Mode }
  | { readonly kind: 'finished'; readonly phase: 'completed' | 'archived' | 'failed' }
  /** The deadline came while the job ran, or before it could be read (`unread` says why). */
  | { readonly kind: 'timeout'; readonly timeoutMs: number; readonly unread?: string }
  | { readonly kind: 'cancelled'; readonly reason: string }
  | { readonly kind: 'error'; readonly error: unknown }
  /** Nothing to document; `check` is what the docs check says (by default: no documented file). */
  | {
      readonly kind: 'skipped'
      readonly reason: string
      readonly check?: string
      /** The docs check on the commit already says what is true: nothing is written over it. */
      readonly leaveCheck?: boolean
      /** `error`: it could not be told whether there is anything to document; never success. */
      readonly checkState?: 'success' | 'error'
      /** The reason is also a notice: a skip the workflow can prevent (no secrets on a fork). */
      readonly notice?: boolean
    }
  | { readonly kind: 'dry-run' }

/** The change that started the workflow, as the sinks need it. */
export interface Trigger {
  readonly event: Event
  readonly pull?: PullRef
  /** The commit the code change ends on: where a check about it belongs. */
  readonly commit?: CommitRef
  readonly runUrl?: string
}

export type Written = 'comment' | 'check' | 'docs-comment'

export interface RunState {
  readonly projectId: string
  mode: Mode
  job?: Job
  outcome: Outcome
  /** Lines about the run, such as why a new job replaced the recorded one. */
  readonly notes: string[]
  readonly startedAt: number
  elapsedMs: number
  readonly failOnNoPr: boolean
  trigger?: Trigger
  /** The docs pull request's state, read once the job has one and before any sink says so. */
  docs?: DocsPull
  preview?: Preview
  /** A job that completed without a link: the agent's commits on the deploy branch, as read. */
  pushes?: DocsPushes
  docsChecks?: DocsChecks
  /** The docs head the job's last accepted preview was for: a later run asks once it moved. */
  previewed?: { readonly jobId: string; readonly sha: string }
  /** The last code commit the job was told about, which the status comment records. */
  told?: string
  /** A run on a branch: the last commit documented before the job, for the branch's record. */
  branch?: {
    readonly name: string
    readonly base?: string
    /** The job the record names when the run itself works with none (a skip). */
    readonly jobId?: string
  }
  /** The platform took the project id: true once a job answered, false while none did, or unset. */
  accepted?: boolean
  /** The docs pull request the status comment records: the only one written to or called ready. */
  recordedDocs?: PullRef
  readonly written: Partial<Record<Written, string>>
  /** What the sinks did on GitHub, a line each, in the sinks' order: the log says them last. */
  readonly did: string[]
}

/** What the presentation reads of the run. */
export type RunRecord = Pick<
  RunState,
  'job' | 'outcome' | 'elapsedMs' | 'failOnNoPr' | 'docs' | 'preview' | 'pushes' | 'docsChecks'
> & {
  /** What the step did with the job; a new job when left out. */
  readonly mode?: Mode
}

/** The state of a run that has just begun: nothing known yet, and an ending that says so. */
export function newRunState(startedAt: number): RunState {
  return {
    projectId: '',
    mode: 'create',
    outcome: { kind: 'error', error: new Error('The run ended unexpectedly.') },
    notes: [],
    startedAt,
    elapsedMs: 0,
    failOnNoPr: false,
    written: {},
    did: []
  }
}

/** Whether the job ended, or already answered, as completed with a pull request link. */
export function endsWithLink(state: Pick<RunState, 'outcome' | 'job'>): boolean {
  const { outcome, job } = state
  if (!job?.prLink) return false
  if (outcome.kind === 'finished') return outcome.phase === 'completed'
  return outcome.kind === 'started' && classifyStatus(job.status).phase === 'completed'
}

/** Whether the job ended, or already answered, as completed, and without a pull request link. */
export function endsWithoutLink(state: Pick<RunState, 'outcome' | 'job'>): boolean {
  const { outcome, job } = state
  if (!job || job.prLink) return false
  if (outcome.kind === 'finished') return outcome.phase === 'completed'
  // Right after a follow-up message, the answer may still show the job from before it.
  if (outcome.kind !== 'started' || outcome.mode === 'follow-up') return false
  return classifyStatus(job.status).phase === 'completed'
}

/** Records where the sinks wrote, and what they did on GitHub, in their order. */
export function recordWrote(
  state: RunState,
  wrote: readonly { written?: Written; url?: string; did?: readonly string[] }[]
): void {
  for (const { written, url, did = [] } of wrote) {
    if (written && url) state.written[written] = url
    state.did.push(...did)
  }
}
