/**
 * How the run ended, in words: the headline, the status comment's heading, the docs check's state
 * (the one place it is decided), the failure message, and the notes and warnings it owes. Pure.
 */
import { formatDuration } from '../duration.js'
import { errorMessage } from '../errors.js'
import { classifyStatus, encodeJobId, refusedFields, type NamedField } from '../mintlify/job.js'
import { DASHBOARD } from '../mintlify/api.js'
import { describeLink, forLog, safeLink, type SafeLink } from '../sanitize.js'
import type { Mode, RunRecord } from '../run.js'
import { pullName } from '../trigger/ref.js'
import { commitCount, failingNames } from './outcome.js'

export interface Ending {
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
  /** The status comment's headline. */
  readonly comment: string
  /** The docs check on the code commit. */
  readonly check: CheckState
}

/**
 * A commit status's state and its description (at most 140 characters). A run that stopped
 * waiting for a job that still runs stays `pending`: a required check must not pass on it.
 */
export interface CheckState {
  readonly state: 'pending' | 'success' | 'failure' | 'error'
  readonly description: string
}

/** An ending less what every ending shares (the link, the refused fields' warnings). */
type Said = Omit<Ending, 'link' | 'warnings' | 'notes'> & {
  readonly notes?: readonly string[]
  readonly warnings?: readonly string[]
}

/** What every ending reads of the run. */
interface Seen {
  readonly record: RunRecord
  readonly mode: Mode
  /** The job id for the log. */
  readonly id: string
  readonly link?: SafeLink
  readonly keepsRunning: string
  readonly stillRunning: CheckState
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
  const seen: Seen = {
    record,
    mode: record.mode ?? 'create',
    id,
    link,
    keepsRunning:
      `Agent job ${id} keeps running on the platform (the API cannot stop a job); follow it in ` +
      `the Mintlify dashboard (${DASHBOARD}).`,
    stillRunning: {
      state: 'pending',
      description: `Still running: docs job ${short}; this run stopped waiting for it`
    }
  }
  const said = saidOf(seen, short)
  return {
    ...said,
    link,
    notes: said.notes ?? [],
    warnings: [...warnings, ...(said.warnings ?? [])]
  }
}

function saidOf(seen: Seen, short: string): Said {
  const { record, mode, id, keepsRunning, stillRunning } = seen
  const { outcome, job } = record
  switch (outcome.kind) {
    case 'running':
      return {
        icon: '⏳',
        headline: RUNNING[mode].slice(2),
        comment: RUNNING[mode],
        check: {
          state: 'pending',
          description:
            mode === 'follow-up'
              ? `Follow-up sent to docs job ${short}`
              : `Docs job ${short} is running`
        }
      }
    case 'skipped':
      return {
        icon: '⏭️',
        headline: 'Skipped: no job started',
        notes: [outcome.reason],
        notice: outcome.notice ? outcome.reason : undefined,
        comment: '⏭️ No docs job needed',
        check: {
          state: outcome.checkState ?? 'success',
          description: outcome.check ?? 'No documented files changed'
        }
      }
    case 'dry-run':
      return {
        icon: '🧪',
        headline: 'Dry run: no job started',
        comment: RUNNING[mode],
        check: { state: 'pending', description: 'Dry run: no docs job started' },
        notes: [
          'dry-run is true, so no request was sent to Mintlify. The whole prompt is in the log ' +
            'and in the job summary.'
        ]
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
      return {
        icon: '🚀',
        headline,
        notes: [`Not waiting for the job (wait: false). ${keepsRunning}`],
        comment: RUNNING[outcome.mode],
        check: {
          state: 'pending',
          description: `Docs job ${short} is running; attach with job-id to follow it`
        }
      }
    }
    case 'finished':
      return finished(seen, outcome.phase)
    case 'timeout':
      return {
        icon: '⏱️',
        headline: 'Timed out',
        comment: '⏱️ The docs job is still running; this run stopped waiting for it',
        check: stillRunning,
        failMessage: outcome.unread
          ? `Timed out: agent job ${id} could not be read before the ` +
            `${formatDuration(outcome.timeoutMs)} timeout; the last read: ${outcome.unread} ` +
            keepsRunning
          : `Timed out: agent job ${id} ${lastSeen(job?.status)} at the last check before the ` +
            `${formatDuration(outcome.timeoutMs)} timeout. ${keepsRunning} Raise timeout, ` +
            'or set wait: false to start the job without waiting.'
      }
    case 'cancelled':
      return {
        icon: '🛑',
        headline: 'Cancelled',
        comment: '🛑 The workflow was cancelled; the docs job keeps running',
        check: job ? stillRunning : { state: 'error', description: 'The workflow was cancelled' },
        failMessage: job
          ? `${outcome.reason} ${keepsRunning}`
          : `${outcome.reason} The job had not been confirmed as created; check the dashboard before running the step again.`
      }
    case 'error': {
      const message = errorMessage(outcome.error)
      return {
        icon: '❌',
        headline: 'Failed',
        comment: '❌ The docs step failed; see the workflow run',
        // A job known only by its id (a follow-up or an attach that failed) was never seen
        // running by this run: nothing says it runs, so its check is not left pending.
        check:
          job?.id && job.status
            ? stillRunning
            : { state: 'error', description: 'The docs step failed; see the workflow run' },
        failMessage: job?.id ? `${message} ${keepsRunning}` : message
      }
    }
  }
}

function finished(seen: Seen, phase: 'completed' | 'archived' | 'failed'): Said {
  const { id, link } = seen
  if (phase === 'completed') return link ? opened(seen, link) : completed(seen)
  if (phase === 'archived') {
    return {
      icon: '⚠️',
      headline: 'The job was archived before it finished',
      comment: '⚠️ The docs job was archived before it finished',
      check: { state: 'failure', description: 'The docs job was archived before it finished' },
      warnings: [
        `Agent job ${id} was archived before it finished.` +
          (link ? ` It had opened ${link.href}.` : ' It has no pull request link.')
      ]
    }
  }
  return {
    icon: '❌',
    headline: 'The job failed',
    comment: '❌ The docs job failed',
    check: { state: 'failure', description: 'The docs job failed' },
    failMessage: `Agent job ${id} failed. Open it in the Mintlify dashboard (${DASHBOARD}) to see what the agent reported.`
  }
}

/**
 * The job completed with a pull request: ready only when the docs pull request was read and is
 * open; merged, closed, or unread, the words say so.
 */
function opened({ record, id }: Seen, link: SafeLink): Said {
  const docs = record.docs
  const name = docs?.ref ? pullName(docs.ref) : 'The docs pull request'
  const followUp = record.mode === 'follow-up'
  const done = followUp
    ? {
        headline: 'The agent finished the follow-up',
        notice: `Agent job ${id} finished the follow-up; its pull request: ${link.href}`
      }
    : {
        headline: 'The agent opened a pull request',
        notice: `Agent job ${id} opened a pull request: ${link.href}`
      }
  if (docs?.state === 'closed' || (followUp && docs?.state === 'merged')) {
    const how = docs.state === 'merged' ? 'merged' : 'closed without merging'
    return {
      icon: '⚠️',
      headline: `The docs pull request was ${how}`,
      comment: `⚠️ The docs pull request was ${how}`,
      check: {
        state: 'failure',
        description:
          docs.state === 'merged'
            ? 'Docs pull request already merged: this change is not in it'
            : 'Docs pull request closed without merging'
      },
      warnings: [
        `${name} was ${how}, so the docs do not include ${followUp ? 'this follow-up' : 'this change'}.` +
          ' The next run starts a new docs job.'
      ]
    }
  }
  // The open docs pull request's own checks, read at the end: failing ones fail the docs check.
  const checks = docs?.state === 'open' ? record.docsChecks : undefined
  if (checks?.state === 'failure') {
    const names = failingNames(checks.failing, 100)
    return {
      ...done,
      icon: '❌',
      comment: '❌ Docs pull request checks failing',
      check: { state: 'failure', description: `Docs pull request checks failing: ${names}` },
      warnings: [`The checks of ${name} failed: ${failingNames(checks.failing, 500)}.`]
    }
  }
  if (checks?.state === 'pending') {
    const still = 'Docs pull request ready; its checks are still running'
    return {
      ...done,
      icon: '✅',
      comment: `✅ ${still}`,
      check: { state: 'success', description: still }
    }
  }
  if (docs?.state === 'unknown') {
    const unread = 'Docs pull request opened; its state could not be read'
    // One the job opened or updated whose state could not be read (a private docs repository
    // without docs-token; the warning says how to let it be read) is still a green "opened":
    // nobody needs to act on it. Nothing says ready.
    const check: CheckState =
      docs.ref !== undefined
        ? {
            state: 'success',
            description: `Docs pull request ${followUp ? 'updated' : 'opened'}; its state could not be read`
          }
        : { state: 'error', description: unread }
    return {
      ...done,
      icon: '⚠️',
      notes: docs.why ? [docs.why] : [],
      comment: `⚠️ ${unread}`,
      check
    }
  }
  const ready = docs?.state === 'merged' ? 'Docs pull request merged' : 'Docs pull request ready'
  return {
    ...done,
    icon: '✅',
    comment: `✅ ${ready}`,
    check: { state: 'success', description: ready }
  }
}

/** The job completed without a link it hands on. */
function completed({ record, id }: Seen): Said {
  if (record.docs?.state === 'foreign') {
    return {
      icon: '⚠️',
      headline: "The job named a pull request that is not the agent's",
      comment: "⚠️ The docs job named a pull request that is not the agent's",
      check: {
        state: 'error',
        description: "Docs job named a pull request that is not the agent's; nothing was done"
      },
      warnings: [record.docs.why ?? "The job's pull request is not the agent's."]
    }
  }
  const noLink =
    `Agent job ${id} completed without a pull request link. The agent may have changed ` +
    'nothing, or, where the project lets it push straight to the deploy branch, it may have ' +
    'pushed its changes without a pull request; see the job in the Mintlify dashboard.'
  const comment = '☑️ The docs job finished without a pull request link'
  if (record.failOnNoPr) {
    return {
      icon: '❌',
      headline: 'No pull request link',
      failMessage: `${noLink} The step fails because fail-on-no-pr is true.`,
      comment,
      check: { state: 'failure', description: 'Completed, no pull request (fail-on-no-pr)' }
    }
  }
  // The deploy branch, where it could be read, tells a push from no change.
  const pushes = record.pushes
  if (!pushes?.known) {
    return {
      icon: '☑️',
      headline: 'Completed without a pull request link',
      notes: [noLink],
      comment,
      check: {
        state: 'success',
        description: pushes
          ? 'Completed, no pull request; whether the agent pushed could not be read'
          : 'Completed, no pull request: nothing to review'
      }
    }
  }
  const branch = forLog(pushes.branch, 60)
  const repo = `${pushes.repo.owner}/${pushes.repo.repo}`
  if (pushes.commits.length === 0) {
    return {
      icon: '☑️',
      headline: 'No docs change needed',
      notes: [
        `Agent job ${id} completed without a pull request, and the agent pushed nothing to ` +
          `branch ${branch} of ${repo} since the job was created: no docs change was needed.`
      ],
      comment: '☑️ No docs change needed',
      check: { state: 'success', description: 'No docs change needed' }
    }
  }
  const count = commitCount(pushes.commits.length)
  const shas = pushes.commits.map((commit) => commit.sha.slice(0, 7)).join(', ')
  return {
    icon: '✅',
    headline: `The agent pushed to ${branch}`,
    notes: [
      `Agent job ${id} completed without a pull request and pushed ${count} to ` +
        `branch ${branch} of ${repo}: ${shas}.`
    ],
    comment: `✅ Docs pushed to ${branch}`,
    check: { state: 'success', description: `Docs pushed to ${branch}: ${count}` }
  }
}

/** How a job that had not ended was last seen: still working, or in a status this action does not know. */
function lastSeen(status: string | null | undefined): string {
  if (status === undefined || status === null) return 'had shown no status'
  const shown = forLog(status, 60)
  return classifyStatus(status).known
    ? `was still ${shown}`
    : `showed status "${shown}", which this action does not know,`
}
