/**
 * The docs check's words: its name, as branch protection selects it, and its state, description
 * and link for the run as it stands. Pure.
 */
import { createHash } from 'node:crypto'
import { ApiError } from '../base/errors.js'
import { recordSuffix } from '../clients/github/branch-record.js'
import type { RunState } from '../run/state.js'
import { safeLink } from '../base/sanitize.js'
import { parsePullLink } from '../given/ref.js'
import { reportOf, type Reported } from './report.js'

/** GitHub's limit on a status description. */
const MAX_DESCRIPTION = 140

/**
 * The check's name, as branch protection selects it: `Mintlify docs (<project-id>)`, stable for a
 * project; an id with other characters than `[\w.:-]`, or over 100, is shown without them and
 * followed by a short hash of the whole id, so distinct projects keep distinct names.
 */
export function checkName(projectId: string): string {
  if (/^[\w.:-]{1,100}$/.test(projectId)) return `Mintlify docs (${projectId})`
  const hash = createHash('sha256').update(projectId, 'utf8').digest('hex').slice(0, 10)
  return `Mintlify docs (${projectId.replace(/[^\w.:-]/g, '').slice(0, 80)}~${hash})`
}

/**
 * The check's name when the platform did not accept the project id: what was given may be a key
 * (the inputs swapped), so it names none; a required check still waits, and this one says why.
 */
export const UNNAMED_CHECK = 'Mintlify docs'

/**
 * The name the check is written under: the project's (`checkName`) once the platform accepted
 * it in this run, or when the run never asked it (a skip); after a refusal, `UNNAMED_CHECK`;
 * after a request that got no answer, the project's only when `known` (a record an earlier run
 * wrote once the platform had accepted it).
 */
export function checkContext(
  state: Pick<RunState, 'projectId' | 'accepted' | 'outcome'>,
  known = false
): string {
  const { outcome } = state
  const failure =
    outcome.kind === 'error' && outcome.error instanceof ApiError && outcome.error.failure
  // The platform refused the project id with the key: 401, 403 or 404.
  const refused = failure && failure.kind === 'http' && [401, 403, 404].includes(failure.status)
  const named = state.accepted !== false || (known && !refused)
  return named ? checkName(state.projectId) : UNNAMED_CHECK
}

/**
 * The status rendered from the report: its state and words, and a link to the ready docs pull
 * request when it is on this GitHub (`serverUrl`), else to the workflow run; no other link.
 */
export function checkStatus(
  state: Reported & Pick<RunState, 'projectId' | 'accepted'>,
  runUrl: string | undefined,
  serverUrl: string,
  /** A record of the project exists: an earlier run that the platform accepted wrote it. */
  known = false
) {
  const { check, link } = reportOf(state)
  const docs = link && parsePullLink(link.href, serverUrl) ? link.href : undefined
  const target = (check.state === 'success' && docs) || safeLink(runUrl)?.href
  // A run on a branch ends the description with the record the next run there joins by.
  const jobId = state.job?.id ?? state.branch?.jobId
  const { branch } = state
  const record =
    (branch && jobId && recordSuffix({ jobId, branch: branch.name, since: branch.base })) || ''
  return {
    state: check.state,
    context: checkContext(state, known),
    description: check.description.slice(0, MAX_DESCRIPTION - record.length) + record,
    targetUrl: target
  }
}

export function checkWritten(
  status: { readonly context: string; readonly state: string; readonly description: string },
  sha: string
): string {
  return (
    `Set the docs check "${status.context}" on commit ${sha.slice(0, 7)} to ${status.state}: ` +
    `${status.description}`
  )
}
