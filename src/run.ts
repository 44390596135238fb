/**
 * The run's state: what the step did and how it ended, kept in one place while the story in
 * `main.ts` goes on, and handed to every sink (the Actions report, the status comment, the check,
 * the docs pull request). Sinks read it; only `main.ts` changes it.
 */
import type { DocsPull } from './github/docs-pull.js'
import type { Event } from './trigger/event.js'
import type { Job } from './mintlify/job.js'
import type { CommitRef, PullRef } from './trigger/ref.js'
import type { Mode, Outcome } from './present/verdict.js'

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
  /** The last code commit the job was told about, which the status comment records. */
  told?: string
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
    failOnNoPr: false
  }
}
