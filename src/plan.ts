/**
 * What this step does with a job, and with which one: start a new one, continue the one given as
 * `job-id` (a follow-up with a prompt, attaching without), or send the prompt to the job the pull
 * request's status comment records (`reuse-job`). Pure.
 */
import type { Recorded } from './github/companion.js'
import type { Settings } from './inputs.js'
import type { Mode } from './present.js'
import { forLog } from './sanitize.js'

export interface Plan {
  readonly mode: Mode
  /** The job to continue; '' for a new one. */
  readonly jobId: string
  /** The pull request whose status comment records the job (`reuse-job`); undefined otherwise. */
  readonly reusingFrom?: number
  /** Why the plan is what it is, for the log. */
  readonly reason?: string
}

/** The plan for `prompt`, given what the pull request's status comment records, if anything. */
export function planJob(
  settings: Pick<Settings, 'jobId' | 'reuseJob'>,
  prompt: string,
  found: { readonly number: number; readonly recorded?: Recorded } | undefined
): Plan {
  if (settings.jobId) {
    return { mode: prompt ? 'follow-up' : 'attach', jobId: settings.jobId }
  }
  const recorded = found?.recorded
  if (!found || !recorded || !settings.reuseJob) return { mode: 'create', jobId: '' }
  return {
    mode: 'follow-up',
    jobId: recorded.jobId,
    reusingFrom: found.number,
    reason:
      `Pull request #${found.number} already has agent job ${forLog(recorded.jobId, 100)} ` +
      '(reuse-job: true): sending the prompt to it as a follow-up.'
  }
}

/** The dry-run's title for the prompt it shows: what the step would have done with it. */
export function dryRunTitle(plan: Plan): string {
  const id = forLog(plan.jobId, 100)
  switch (plan.mode) {
    case 'create':
      return 'The prompt a new agent job would be given (dry-run)'
    case 'follow-up':
      return (
        `The follow-up message agent job ${id} would be sent` +
        (plan.reusingFrom ? `, the job recorded on pull request #${plan.reusingFrom}` : '') +
        ' (dry-run)'
      )
    case 'attach':
      return `Would attach to agent job ${id} and send it nothing (dry-run)`
  }
}
