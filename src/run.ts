/**
 * The run's state: what the step did and how it ended, kept in one place while the story in
 * `main.ts` goes on, and handed to every sink (the Actions report, the status comment, the check,
 * the docs pull request). Sinks read it and never change it. The act stage changes it as the job
 * goes (the mode, the job, the docs pull request's state); `main.ts` records how the run ended
 * and what sinks hand back (the addresses they wrote, their notes).
 */
import type { DocsChecks } from './github/docs-checks.js'
import type { DocsPull } from './github/docs-pull.js'
import type { DocsPushes } from './github/docs-pushes.js'
import { classifyStatus, type Job } from './mintlify/job.js'
import type { Preview } from './mintlify/preview.js'
import type { Event } from './trigger/event.js'
import type { CommitRef, PullRef } from './trigger/ref.js'

/** How this step works with a job: starts one, sends it a follow-up message, or attaches to it. */
export type Mode = 'create' | 'follow-up' | 'attach'

/** How the run ended, as far as the report is concerned. */
export type Outcome =
  /** The job was started, given the message or attached to, and the step is waiting for it. */
  | { readonly kind: 'running' }
  /** wait: false; the job was started, given the message, or read once. */
  | { readonly kind: 'started'; readonly mode: Mode }
  | { readonly kind: 'finished'; readonly phase: 'completed' | 'archived' | 'failed' }
  /** The deadline came while the job ran, or before it could be read (`unread` says why). */
  | { readonly kind: 'timeout'; readonly timeoutMs: number; readonly unread?: string }
  | { readonly kind: 'cancelled'; readonly reason: string }
  | { readonly kind: 'error'; readonly error: unknown }
  /**
   * No job was started because there is nothing to document; `reason` says why, and `check`
   * what the docs check says (by default that no documented file changed).
   */
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
  /** dry-run: everything up to starting the job was done, and nothing was started. */
  | { readonly kind: 'dry-run' }

/** The change that started the workflow, as the sinks need it. */
export interface Trigger {
  readonly event: Event
  /** The code pull request the change belongs to, when there is one. */
  readonly pull?: PullRef
  /** The commit the code change ends on: where a check about it belongs. */
  readonly commit?: CommitRef
  /** The workflow run's page. */
  readonly runUrl?: string
}

/** A place on GitHub a sink wrote to, for the outputs and the summary. */
export type Written = 'comment' | 'check' | 'docs-comment'

export interface RunState {
  readonly projectId: string
  /** What the step does with the job: start one, send it a follow-up, or attach to it. */
  mode: Mode
  /** The job as last known, once one exists. */
  job?: Job
  /** How the run ended; `running` until it did. */
  outcome: Outcome
  /** Lines the action wrote about the run, such as why a new job replaced the recorded one. */
  readonly notes: string[]
  readonly startedAt: number
  elapsedMs: number
  readonly failOnNoPr: boolean
  trigger?: Trigger
  /** The docs pull request's state, read once the job has one and before any sink says so. */
  docs?: DocsPull
  /** The preview deployment of the docs pull request's branch, once one was asked for. */
  preview?: Preview
  /** A job that completed without a link: the agent's commits on the deploy branch, as read. */
  pushes?: DocsPushes
  /** The checks on the open docs pull request's head, read once at the end of the run. */
  docsChecks?: DocsChecks
  /**
   * The docs pull request's head commit the last preview of the job's branch was requested for:
   * the record's, until this run's request is accepted. The status comment records it for the
   * job it names, so a later run asks for a preview only once the head has moved.
   */
  previewed?: { readonly jobId: string; readonly sha: string }
  /** The last code commit the job was told about, which the status comment records. */
  told?: string
  /**
   * A run on a branch: the branch and the last commit documented before the job began, which
   * the docs check records for the next run on the branch (with the job's id).
   */
  branch?: {
    readonly name: string
    readonly base?: string
    /** The job the record names when the run itself works with none (a skip). */
    readonly jobId?: string
  }
  /**
   * Whether the platform accepted the project id with the key: true once a create, follow-up or
   * read of a job answered, false while one was sent and none had (a refusal, a failure);
   * undefined while none was sent. Until it is true, nothing on GitHub names a project the
   * platform may not know (a key given as the project id).
   */
  accepted?: boolean
  /**
   * The docs pull request the status comment records for the job this run follows: the only one
   * it writes to or calls ready, whatever the platform's answer names.
   */
  recordedDocs?: PullRef
  /** The addresses of what the sinks wrote on GitHub. */
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
