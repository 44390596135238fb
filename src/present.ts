/**
 * What happened, in words: the headline, the annotation, the failure message and the notes for
 * the log. Pure: it decides what to say, and `report.ts` says it.
 */
import { formatDuration } from './duration.js'
import { errorMessage } from './errors.js'
import { classifyStatus, type Job } from './job.js'
import { describeLink, forLog, safeLink, type SafeLink } from './sanitize.js'

/** How this step works with a job: starts one, sends it a follow-up message, or attaches to it. */
export type Mode = 'create' | 'follow-up' | 'attach'

/** How the run ended, as far as the report is concerned. */
export type Outcome =
  /** wait: false; the job was started, given the message, or read once. */
  | { readonly kind: 'started'; readonly mode: Mode }
  | { readonly kind: 'finished'; readonly phase: 'completed' | 'archived' | 'failed' }
  | { readonly kind: 'timeout'; readonly timeoutMs: number }
  | { readonly kind: 'cancelled'; readonly reason: string }
  | { readonly kind: 'error'; readonly error: unknown }
  /** No job was started because there is nothing to document; `reason` says why. */
  | { readonly kind: 'skipped'; readonly reason: string }
  /** dry-run: everything up to starting the job was done, and nothing was started. */
  | { readonly kind: 'dry-run' }

export interface RunRecord {
  /** The job as last known, once a job exists. */
  readonly job?: Job
  readonly outcome: Outcome
  readonly elapsedMs: number
  readonly failOnNoPr: boolean
  /** What the step did with the job; a new job when left out. */
  readonly mode?: Mode
}

export interface Verdict {
  readonly icon: string
  readonly headline: string
  /** The pull request link, when the job has one that is safe to hand on. */
  readonly link?: SafeLink
  /** Lines for the log, in order. */
  readonly notes: readonly string[]
  /** Annotations that do not fail the step. */
  readonly warnings: readonly string[]
  readonly notice?: string
  /** Set when the step fails: the message for `setFailed`. */
  readonly failMessage?: string
}

/** Turns what happened into what the action says about it. */
export function verdictOf(record: RunRecord): Verdict {
  const { job, outcome } = record
  const link = safeLink(job?.prLink)
  const warnings: string[] = []
  if (job?.prLink && !link) {
    warnings.push(
      "The job's pull request link is not a plain http(s) URL, so pr-link is left empty: " +
        describeLink(job.prLink)
    )
  }
  const id = forLog(job?.id ?? '', 100)
  const keepsRunning =
    `Agent job ${id} keeps running on the platform (the API cannot stop a job); follow it in the ` +
    'Mintlify dashboard.'
  const base = { link, warnings, notes: [] as string[] }

  const finished = (phase: 'completed' | 'archived' | 'failed'): Verdict => {
    if (phase === 'completed') {
      if (link) {
        // After a follow-up message the pull request already existed; the agent updated it.
        return record.mode === 'follow-up'
          ? {
              ...base,
              icon: '✅',
              headline: 'The agent finished the follow-up',
              notice: `Agent job ${id} finished the follow-up; its pull request: ${link.href}`
            }
          : {
              ...base,
              icon: '✅',
              headline: 'The agent opened a pull request',
              notice: `Agent job ${id} opened a pull request: ${link.href}`
            }
      }
      const noLink =
        `Agent job ${id} completed without a pull request link. The agent may have changed ` +
        'nothing, or, where the project lets it push straight to the deploy branch, it may have ' +
        'pushed its changes without a pull request; see the job in the Mintlify dashboard.'
      if (record.failOnNoPr) {
        return {
          ...base,
          icon: '❌',
          headline: 'No pull request link',
          failMessage: `${noLink} The step fails because fail-on-no-pr is true.`
        }
      }
      return {
        ...base,
        icon: '☑️',
        headline: 'Completed without a pull request link',
        notes: [noLink]
      }
    }
    if (phase === 'archived') {
      return {
        ...base,
        icon: '⚠️',
        headline: 'The job was archived before it finished',
        warnings: [
          ...warnings,
          `Agent job ${id} was archived before it finished.` +
            (link ? ` It had opened ${link.href}.` : ' It has no pull request link.')
        ]
      }
    }
    return {
      ...base,
      icon: '❌',
      headline: 'The job failed',
      failMessage: `Agent job ${id} failed. Open it in the Mintlify dashboard to see what the agent reported.`
    }
  }

  switch (outcome.kind) {
    case 'skipped':
      return { ...base, icon: '⏭️', headline: 'Skipped: no job started', notes: [outcome.reason] }
    case 'dry-run':
      return {
        ...base,
        icon: '🧪',
        headline: 'Dry run: no job started',
        notes: [
          'dry-run is true, so no request was sent to Mintlify. The whole prompt is in the log ' +
            'and in the job summary.'
        ]
      }
    case 'started': {
      // The answer to the request may already say how the job ended; after a follow-up message
      // it may still show the status from before the message.
      const { phase } = classifyStatus(job?.status)
      if (phase !== 'running' && outcome.mode !== 'follow-up') return finished(phase)
      const headline = {
        create: `Agent job ${id} started`,
        'follow-up': `Follow-up message sent to agent job ${id}`,
        attach: `Agent job ${id} is still running`
      }[outcome.mode]
      return {
        ...base,
        icon: '🚀',
        headline,
        notes: [`Not waiting for the job (wait: false). ${keepsRunning}`]
      }
    }
    case 'finished':
      return finished(outcome.phase)
    case 'timeout':
      return {
        ...base,
        icon: '⏱️',
        headline: 'Timed out',
        failMessage:
          `Timed out after ${formatDuration(outcome.timeoutMs)} waiting for agent job ${id} ` +
          `(last status: ${forLog(job?.status ?? 'unknown', 60)}). ${keepsRunning} Raise timeout, ` +
          'or set wait: false to start the job without waiting.'
      }
    case 'cancelled':
      return {
        ...base,
        icon: '🛑',
        headline: 'Cancelled',
        failMessage: job
          ? `${outcome.reason} ${keepsRunning}`
          : `${outcome.reason} The job had not been confirmed as created; check the dashboard before running the step again.`
      }
    case 'error': {
      const message = errorMessage(outcome.error)
      return {
        ...base,
        icon: '❌',
        headline: 'Failed',
        failMessage: job?.id ? `${message} ${keepsRunning}` : message
      }
    }
  }
}
