/** The record, ending the docs check's description, by which a branch's next run joins its job. */
import { decodeJobId, encodeJobId, jobIdProblem } from '../../base/job-id.js'
import type { Log, Within } from '../../base/runtime.js'
import { forLog } from '../../base/sanitize.js'
import { describeGitHubError, type GitHubApi, type History, sameAccount } from './api.js'

export const RECORD_PAGE = 100

/** Pages of GraphQL's most: 1,000 commits, more than a busy branch's week, for 10 requests. */
export const MAX_RECORD_PAGES = 10

/** What the next run on the branch needs. */
export interface BranchRecord {
  readonly jobId: string
  readonly branch: string
  /** The last commit documented before the job began (a full or short sha). */
  readonly since?: string
  /** The commit the record is on. */
  readonly told: string
  /** Its check is `success`: nothing to mend there (a failure may call for a new job). */
  readonly settled?: boolean
}

// Also matches records written before ids were encoded.
const ID = /^[\w.:%-]{1,64}$/
const BRANCH = /^[\w./-]{1,100}$/
const SUFFIX = / · job ([\w.:%-]{1,64}) since ([0-9a-f]{7,40}|-) on ([\w./-]{1,100})$/

/**
 * The record's words ending the description; undefined (no record) when the id or branch does not
 * fit. The id is encoded, so a space, `/` or `·` in it cannot shift where the next words are read.
 */
export function recordSuffix(record: Omit<BranchRecord, 'told'>): string | undefined {
  const id = encodeJobId(record.jobId)
  if (!ID.test(id) || !BRANCH.test(record.branch)) return undefined
  return ` · job ${id} since ${record.since?.slice(0, 12) ?? '-'} on ${record.branch}`
}

export function readRecord(description: string, told: string): BranchRecord | undefined {
  const match = SUFFIX.exec(description)
  if (!match) return undefined
  const [, encoded = '', since = '-', branch = ''] = match
  const jobId = decodeJobId(encoded)
  if (jobId === undefined || jobIdProblem(jobId)) return undefined
  return { jobId, branch, told, ...(since === '-' ? {} : { since }) }
}

/** The newest own record of `branch` back from `sha`; an unread later page ends the search. */
export async function findRecord(
  github: Pick<GitHubApi, 'history'>,
  where: { owner: string; repo: string; sha: string; branch: string; context: string },
  within: Within,
  log: Pick<Log, 'info' | 'warning'>
): Promise<BranchRecord | undefined> {
  const { owner, repo, sha, branch, context } = where
  const name = forLog(branch, 100)
  let after: string | undefined
  let searched = 0
  for (let page = 1; page <= MAX_RECORD_PAGES; page++) {
    let history: History
    try {
      history = await within((signal) =>
        github.history(owner, repo, sha, RECORD_PAGE, after, signal)
      )
    } catch (error: unknown) {
      if (page === 1) throw error
      log.warning(
        `No docs check of this action was found on the last ${searched} commits of ${name}, ` +
          `and older ones could not be searched (${describeGitHubError(error, 'statuses: read')}), ` +
          'so this run joins no earlier docs job.'
      )
      return undefined
    }
    const record = ownRecord(history, branch, context)
    if (record) return record
    searched += history.commits.length
    if (!history.next) return undefined
    after = history.next
  }
  log.info(
    `No docs check of this action was found on the last ${searched} commits of ${name}; older ` +
      'ones are not searched, so this run joins no earlier docs job.'
  )
  return undefined
}

/** The newest record of `branch` on one page: only the token's own (a stranger's just hides it). */
export function ownRecord(
  history: Pick<History, 'viewer' | 'commits'>,
  branch: string,
  context: string
): BranchRecord | undefined {
  for (const commit of history.commits) {
    // One status per context on a commit: the latest, whoever wrote it.
    const own = commit.statuses.find(
      (status) =>
        status.context === context &&
        status.creator !== undefined &&
        sameAccount(status.creator, history.viewer)
    )
    const record = own && readRecord(own.description, commit.sha)
    const settled = own?.state === 'success'
    if (record && record.branch === branch) return settled ? { ...record, settled } : record
  }
  return undefined
}
