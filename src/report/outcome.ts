/**
 * What the job did to the docs (the `outcome` output and fact) and the docs pull request's own
 * checks (`docs-checks`). The only links are those the reads kept, checked again here. Pure.
 */
import { MAX_SHOWN_COMMITS } from '../clients/github/docs-pushes.js'
import type { NamedCheck } from '../clients/github/docs-checks.js'
import { classifyStatus } from '../clients/mintlify/job.js'
import type { RunRecord } from '../run/state.js'
import { escapeMarkup, forLog, safeLink } from '../base/sanitize.js'
import { linked } from './links.js'

/**
 * What the completed job did: a docs pull request, pushes to the deploy branch, neither, or
 * `unknown` (unread); empty when the run did not see it complete or its link is not handed on.
 */
export type DocsOutcome = '' | 'docs-pr' | 'pushed' | 'no-change' | 'unknown'

/** Whether the run saw the job complete (as the ending reads a `started` answer). */
function seenCompleted(record: RunRecord): boolean {
  const { outcome, job } = record
  if (outcome.kind === 'finished') return outcome.phase === 'completed'
  if (outcome.kind !== 'started' || outcome.mode === 'follow-up') return false
  return classifyStatus(job?.status).phase === 'completed'
}

export function docsOutcome(record: RunRecord): DocsOutcome {
  if (!seenCompleted(record)) return ''
  if (record.job?.prLink) {
    const handedOn = safeLink(record.job.prLink) && record.docs?.state !== 'foreign'
    return handedOn ? 'docs-pr' : ''
  }
  const { pushes } = record
  if (!pushes) return ''
  if (!pushes.known) return 'unknown'
  return pushes.commits.length > 0 ? 'pushed' : 'no-change'
}

export function commitCount(n: number): string {
  return `${n} commit${n === 1 ? '' : 's'}`
}

/** The "Outcome" fact (markup); undefined when empty or the docs pull request fact says it. */
export function outcomeMarkup(record: RunRecord): string | undefined {
  const { pushes } = record
  switch (docsOutcome(record)) {
    case 'pushed': {
      if (!pushes?.known) return undefined
      const shown = pushes.commits
        .slice(0, MAX_SHOWN_COMMITS)
        .map((commit) => linked(commit.url, `<code>${escapeMarkup(commit.sha.slice(0, 7))}</code>`))
      const more = pushes.commits.length > shown.length ? ', …' : ''
      return (
        `Pushed to <code>${escapeMarkup(pushes.branch, 100)}</code> without a pull request ` +
        `(${commitCount(pushes.commits.length)}): ${shown.join(', ')}${more}`
      )
    }
    case 'no-change':
      return 'No docs change needed: no pull request, and the agent pushed nothing'
    case 'unknown':
      return 'Unknown: the docs repository could not be read (see the warning)'
    default:
      return undefined
  }
}

/** A check's name as markup: a link where the read kept one on this GitHub, else inert text. */
const checkMarkup = (check: NamedCheck) => linked(check.url, escapeMarkup(check.name, 100))

/** The "Docs checks" line (markup); undefined when they were not read. */
export function docsChecksMarkup(record: RunRecord): string | undefined {
  const checks = record.docsChecks
  switch (checks?.state) {
    case undefined:
      return undefined
    case 'unknown':
      return 'Unknown: they could not be read (see the warning)'
    case 'failure':
      return `❌ Failing: ${checks.failing.slice(0, 10).map(checkMarkup).join(', ')}`
    case 'pending':
      return `⏳ Still running: ${checks.running.slice(0, 10).map(checkMarkup).join(', ')}`
    case 'success':
      return '✅ Passed (or none)'
  }
}

/** The failing checks' names for the docs check's description, within `max` characters. */
export function failingNames(checks: readonly NamedCheck[], max: number): string {
  const names = checks.map((check) => forLog(check.name, 60)).join(', ')
  return names.length <= max ? names : `${names.slice(0, max - 1)}…`
}
