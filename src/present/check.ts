/**
 * The docs check's words: its name, as branch protection selects it, and its state, description
 * and link for the run as it stands. Pure.
 */
import { createHash } from 'node:crypto'
import { recordSuffix } from '../github/branch-record.js'
import type { RunRecord, RunState } from '../run.js'
import { safeLink } from '../sanitize.js'
import { parsePullLink } from '../trigger/ref.js'
import { verdictOf } from './verdict.js'

/** GitHub's limit on a status description. */
const MAX_DESCRIPTION = 140

/**
 * The check's name, as branch protection and rulesets select it: `Mintlify docs (<project-id>)`.
 * Stable for a project, whatever the workflow, job or run, and distinct for distinct projects: an
 * id with other characters than letters, digits, `_`, `.`, `:` and `-`, or over 100 of them, is
 * shown without them and followed by a short hash of the whole id.
 */
export function checkName(projectId: string): string {
  if (/^[\w.:-]{1,100}$/.test(projectId)) return `Mintlify docs (${projectId})`
  const hash = createHash('sha256').update(projectId, 'utf8').digest('hex').slice(0, 10)
  return `Mintlify docs (${projectId.replace(/[^\w.:-]/g, '').slice(0, 80)}~${hash})`
}

/**
 * The status for the run as it stands: state and words from the presentation, and a link: the
 * docs pull request once it is ready, when it is a pull request on this GitHub (`serverUrl`), or
 * else the workflow run. No other link from the API becomes the check's.
 */
export function checkStatus(
  state: RunRecord & Pick<RunState, 'projectId' | 'branch'>,
  runUrl: string | undefined,
  serverUrl: string
) {
  const { check, link } = verdictOf(state)
  const docs = link && parsePullLink(link.href, serverUrl) ? link.href : undefined
  const target = (check.state === 'success' && docs) || safeLink(runUrl)?.href
  // A run on a branch ends the description with the record the next run there joins by.
  const jobId = state.job?.id ?? state.branch?.jobId
  const record =
    (state.branch && jobId
      ? recordSuffix({ jobId, branch: state.branch.name, since: state.branch.base })
      : undefined) ?? ''
  return {
    state: check.state,
    context: checkName(state.projectId),
    description: check.description.slice(0, MAX_DESCRIPTION - record.length) + record,
    targetUrl: target
  }
}
