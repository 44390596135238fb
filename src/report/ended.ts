/**
 * What the action says of a job seen to end: completed (with a docs pull request, pushed to the
 * deploy branch, or nothing to change), archived or failed. Pure.
 */
import { DASHBOARD } from '../clients/mintlify/api.js'
import type { RunRecord } from '../run/state.js'
import { forLog, type SafeLink } from '../base/sanitize.js'
import { pullName } from '../given/ref.js'
import { commitCount, failingNames } from './outcome.js'

/** A commit status's state and words; a job that may still run stays `pending`, never passes. */
export interface CheckState {
  readonly state: 'pending' | 'success' | 'failure' | 'error'
  readonly description: string
}

/** What an ending says, less what every ending shares (the link, the refused fields' warnings). */
export interface Said {
  readonly icon: string
  readonly headline: string
  /** The status comment's headline. */
  readonly comment: string
  /** The docs check on the code commit: the one place its state is decided. */
  readonly check: CheckState
  readonly notice?: string
  /** Set when the step fails: the message for `setFailed`. */
  readonly failMessage?: string
  readonly notes?: readonly string[]
  readonly warnings?: readonly string[]
}

export function say(
  icon: string,
  headline: string,
  comment: string,
  check: CheckState,
  more: Partial<Said> = {}
): Said {
  return { icon, headline, comment, check, ...more }
}

export function is(state: CheckState['state'], description: string): CheckState {
  return { state, description }
}

/** What every ending reads of the run; `id` is the job's, for the log. */
export interface Seen {
  readonly record: RunRecord
  readonly id: string
  readonly link?: SafeLink
}

/** What the run says of a job seen to end in `phase`. */
export function finished(seen: Seen, phase: 'completed' | 'archived' | 'failed'): Said {
  const { id, link } = seen
  if (phase === 'completed') return link ? opened(seen, link) : completed(seen)
  if (phase === 'archived') {
    const archived = 'The docs job was archived before it finished'
    const had = link ? ` It had opened ${link.href}.` : ' It has no pull request link.'
    const warnings = [`Agent job ${id} was archived before it finished.${had}`]
    const headline = 'The job was archived before it finished'
    return say('⚠️', headline, `⚠️ ${archived}`, is('failure', archived), { warnings })
  }
  const failed = 'The docs job failed'
  const failMessage = `Agent job ${id} failed. Open it in the Mintlify dashboard (${DASHBOARD}) to see what the agent reported.`
  return say('❌', 'The job failed', `❌ ${failed}`, is('failure', failed), { failMessage })
}

/** The job completed with a pull request: ready only when it was read and is open. */
function opened({ record, id }: Seen, link: SafeLink): Said {
  const docs = record.docs
  const name = docs?.ref ? pullName(docs.ref) : 'The docs pull request'
  const followUp = record.mode === 'follow-up'
  const headline = followUp ? 'The agent finished the follow-up' : 'The agent opened a pull request'
  const notice = followUp
    ? `Agent job ${id} finished the follow-up; its pull request: ${link.href}`
    : `Agent job ${id} opened a pull request: ${link.href}`
  const ready = (icon: string, comment: string, check: CheckState, more: Partial<Said> = {}) =>
    say(icon, headline, `${icon} ${comment}`, check, { notice, ...more })
  if (docs?.state === 'closed' || (followUp && docs?.state === 'merged')) {
    const how = docs.state === 'merged' ? 'merged' : 'closed without merging'
    const check = is(
      'failure',
      docs.state === 'merged'
        ? 'Docs pull request already merged: this change is not in it'
        : 'Docs pull request closed without merging'
    )
    const what = followUp ? 'this follow-up' : 'this change'
    const warnings = [
      `${name} was ${how}, so the docs do not include ${what}. The next run starts a new docs job.`
    ]
    const headline = `The docs pull request was ${how}`
    return say('⚠️', headline, `⚠️ ${headline}`, check, { warnings })
  }
  // The open docs pull request's own checks, read at the end: failing ones fail the docs check.
  const checks = docs?.state === 'open' ? record.docsChecks : undefined
  if (checks?.state === 'failure') {
    const failing = `Docs pull request checks failing: ${failingNames(checks.failing, 100)}`
    return ready('❌', 'Docs pull request checks failing', is('failure', failing), {
      warnings: [`The checks of ${name} failed: ${failingNames(checks.failing, 500)}.`]
    })
  }
  if (checks?.state === 'pending') {
    const still = 'Docs pull request ready; its checks are still running'
    return ready('✅', still, is('success', still))
  }
  if (docs?.state === 'unknown') {
    const unread = 'Docs pull request opened; its state could not be read'
    // One the job opened whose state could not be read (a private docs repository without
    // docs-token) is still a green "opened": nobody needs to act on it. Nothing says ready.
    const check = docs.ref
      ? is(
          'success',
          `Docs pull request ${followUp ? 'updated' : 'opened'}; its state could not be read`
        )
      : is('error', unread)
    return ready('⚠️', unread, check, { notes: docs.why ? [docs.why] : [] })
  }
  const merged = docs?.state === 'merged' ? 'Docs pull request merged' : 'Docs pull request ready'
  return ready('✅', merged, is('success', merged))
}

/** The job completed without a link it hands on. */
function completed({ record, id }: Seen): Said {
  if (record.docs?.state === 'foreign') {
    const named = "named a pull request that is not the agent's"
    const check = is('error', `Docs job ${named}; nothing was done`)
    const warnings = [record.docs.why ?? "The job's pull request is not the agent's."]
    return say('⚠️', `The job ${named}`, `⚠️ The docs job ${named}`, check, { warnings })
  }
  const noLink =
    `Agent job ${id} completed without a pull request link. The agent may have changed ` +
    'nothing, or, where the project lets it push straight to the deploy branch, it may have ' +
    'pushed its changes without a pull request; see the job in the Mintlify dashboard.'
  const comment = '☑️ The docs job finished without a pull request link'
  if (record.failOnNoPr) {
    const check = is('failure', 'Completed, no pull request (fail-on-no-pr)')
    return say('❌', 'No pull request link', comment, check, {
      failMessage: `${noLink} The step fails because fail-on-no-pr is true.`
    })
  }
  // The deploy branch, where it could be read, tells a push from no change.
  const pushes = record.pushes
  if (!pushes?.known) {
    const check = is(
      'success',
      pushes
        ? 'Completed, no pull request; whether the agent pushed could not be read'
        : 'Completed, no pull request: nothing to review'
    )
    return say('☑️', 'Completed without a pull request link', comment, check, { notes: [noLink] })
  }
  const branch = forLog(pushes.branch, 60)
  const repo = `${pushes.repo.owner}/${pushes.repo.repo}`
  if (pushes.commits.length === 0) {
    const none = 'No docs change needed'
    return say('☑️', none, `☑️ ${none}`, is('success', none), {
      notes: [
        `Agent job ${id} completed without a pull request, and the agent pushed nothing to ` +
          `branch ${branch} of ${repo} since the job was created: no docs change was needed.`
      ]
    })
  }
  const count = commitCount(pushes.commits.length)
  const shas = pushes.commits.map((commit) => commit.sha.slice(0, 7)).join(', ')
  const check = is('success', `Docs pushed to ${branch}: ${count}`)
  return say('✅', `The agent pushed to ${branch}`, `✅ Docs pushed to ${branch}`, check, {
    notes: [
      `Agent job ${id} completed without a pull request and pushed ${count} to ` +
        `branch ${branch} of ${repo}: ${shas}.`
    ]
  })
}
