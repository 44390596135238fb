/**
 * How the run ended, in words: the headline, the status comment's heading, the docs check's state
 * (the one place it is decided), the failure message, and the notes and warnings it owes. Pure.
 */
import { formatDuration } from '../base/duration.js'
import { errorMessage } from '../base/errors.js'
import { encodeJobId } from '../base/job-id.js'
import { classifyStatus, refusedFields, type NamedField } from '../clients/mintlify/job.js'
import { DASHBOARD } from '../clients/mintlify/api.js'
import { describeLink, forLog, safeLink, type SafeLink } from '../base/sanitize.js'
import type { RunRecord } from '../run/state.js'
import { finished, is, say, type Said, type Seen } from './ended.js'

export interface Ending extends Said {
  /** The pull request link, when the job has one that is safe to hand on. */
  readonly link?: SafeLink
  readonly notes: readonly string[]
  readonly warnings: readonly string[]
}

/** The status comment's headline while the job runs, by mode. */
const RUNNING = {
  create: '⏳ Docs update started',
  'follow-up': '⏳ Follow-up sent to the docs job',
  attach: '⏳ Waiting for the docs job'
} as const

const SHAPES: Record<NamedField, string> = {
  id: 'a job id (at most 256 characters, no control characters, not "." or "..")',
  prLink: 'a pull request link (https://<server>/<owner>/<repo>/pull/<n>, nothing more)',
  'source.repository': 'a repository link (https://<server>/<owner>/<repo>, nothing more)',
  'source.ref': 'a branch name'
}

/** The warning for a field of the job's answer refused for its shape; it never quotes it. */
function refusedWords(field: NamedField): string {
  return (
    `The platform's answer gave ${field} in a form that is not ${SHAPES[field]}, so it is treated ` +
    'as absent: it is not shown, handed on or acted on.'
  )
}

/** Turns what happened into what the action says about it, on every surface. */
export function endingOf(record: RunRecord): Ending {
  const { job } = record
  // A pull request GitHub says is not the agent's is never handed on, shown or called ready.
  const foreign = record.docs?.state === 'foreign'
  const link = foreign ? undefined : safeLink(job?.prLink)
  const warnings: string[] = refusedFields(job).map(refusedWords)
  if (job?.prLink && !link && !foreign) {
    warnings.push(
      "The job's pull request link is not a plain http(s) URL, so pr-link is left empty: " +
        describeLink(job.prLink)
    )
  }
  const id = forLog(job?.id ?? '', 100)
  // The check shows the job id encoded: plain characters only, nothing in it can mention or link.
  const short = encodeJobId(job?.id ?? '').slice(0, 40)
  const said = saidOf({ record, id, link }, short)
  return {
    ...said,
    link,
    notes: said.notes ?? [],
    warnings: [...warnings, ...(said.warnings ?? [])]
  }
}

function saidOf(seen: Seen, short: string): Said {
  const { record, id } = seen
  const { outcome, job } = record
  const mode = record.mode ?? 'create'
  const keepsRunning =
    `Agent job ${id} keeps running on the platform (the API cannot stop a job); follow it in ` +
    `the Mintlify dashboard (${DASHBOARD}).`
  const stopped = `Still running: docs job ${short}; this run stopped waiting for it`
  const stillRunning = is('pending', stopped)
  switch (outcome.kind) {
    case 'running': {
      const follow = mode === 'follow-up'
      const running = follow
        ? `Follow-up sent to docs job ${short}`
        : `Docs job ${short} is running`
      return say('⏳', RUNNING[mode].slice(2), RUNNING[mode], is('pending', running))
    }
    case 'skipped': {
      const check = is(
        outcome.checkState ?? 'success',
        outcome.check ?? 'No documented files changed'
      )
      const notice = outcome.notice ? outcome.reason : undefined
      return say('⏭️', 'Skipped: no job started', '⏭️ No docs job needed', check, {
        notes: [outcome.reason],
        notice
      })
    }
    case 'dry-run': {
      const notes = [
        'dry-run is true, so no request was sent to Mintlify. The whole prompt is in the log ' +
          'and in the job summary.'
      ]
      const check = is('pending', 'Dry run: no docs job started')
      return say('🧪', 'Dry run: no job started', RUNNING[mode], check, { notes })
    }
    case 'started': {
      // The answer to the request may already say how the job ended; after a follow-up message
      // it may still show the status from before the message.
      const { phase } = classifyStatus(job?.status)
      if (phase !== 'running' && outcome.mode !== 'follow-up') return finished(seen, phase)
      const headline = {
        create: `Agent job ${id} started`,
        'follow-up': `Follow-up message sent to agent job ${id}`,
        attach: `Agent job ${id} is still running`
      }[outcome.mode]
      const check = is('pending', `Docs job ${short} is running; attach with job-id to follow it`)
      return say('🚀', headline, RUNNING[outcome.mode], check, {
        notes: [`Not waiting for the job (wait: false). ${keepsRunning}`]
      })
    }
    case 'finished':
      return finished(seen, outcome.phase)
    case 'timeout': {
      const timeout = formatDuration(outcome.timeoutMs)
      const failMessage = outcome.unread
        ? `Timed out: agent job ${id} could not be read before the ${timeout} timeout; the ` +
          `last read: ${outcome.unread} ${keepsRunning}`
        : `Timed out: agent job ${id} ${lastSeen(job?.status)} at the last check before the ` +
          `${timeout} timeout. ${keepsRunning} Raise timeout, or set wait: false to start the ` +
          'job without waiting.'
      const comment = '⏱️ The docs job is still running; this run stopped waiting for it'
      return say('⏱️', 'Timed out', comment, stillRunning, { failMessage })
    }
    case 'cancelled': {
      const check = job ? stillRunning : is('error', 'The workflow was cancelled')
      const failMessage = job
        ? `${outcome.reason} ${keepsRunning}`
        : `${outcome.reason} The job had not been confirmed as created; check the dashboard before running the step again.`
      const comment = '🛑 The workflow was cancelled; the docs job keeps running'
      return say('🛑', 'Cancelled', comment, check, { failMessage })
    }
    case 'error': {
      const message = errorMessage(outcome.error)
      const failed = 'The docs step failed; see the workflow run'
      // A job known only by its id (a follow-up or an attach that failed) was never seen
      // running by this run: nothing says it runs, so its check is not left pending.
      const check = job?.id && job.status ? stillRunning : is('error', failed)
      return say('❌', 'Failed', `❌ ${failed}`, check, {
        failMessage: job?.id ? `${message} ${keepsRunning}` : message
      })
    }
  }
}

/** How a job that had not ended was last seen: still working, or in a status not known. */
function lastSeen(status: string | null | undefined): string {
  if (status === undefined || status === null) return 'had shown no status'
  const shown = forLog(status, 60)
  return classifyStatus(status).known
    ? `was still ${shown}`
    : `showed status "${shown}", which this action does not know,`
}
