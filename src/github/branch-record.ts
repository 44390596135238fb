/**
 * The record a run on a branch keeps, so that the next run on that branch joins the same docs job:
 * the job, the branch, and the last commit documented before the job began, at the end of the docs
 * check's description on the commit the job was last told about. Only a check written by the
 * token's own account counts, told by its id (a status's `creator` spells an App's account without
 * `[bot]`, the token's `viewer` with it): a commit's status holds the latest of each context, so a
 * stranger who writes the same context hides the record rather than replacing it. It is found by
 * paging back through the branch's history, newest first, however many commits landed since.
 */
import { decodeJobId, encodeJobId, jobIdProblem } from '../job-id.js'
import type { Log, Within } from '../runtime.js'
import { forLog } from '../sanitize.js'
import { describeGitHubError, type GitHubApi, type History, sameAccount } from './api.js'

/** Commits asked for in one request: the most GraphQL gives a page. */
export const RECORD_PAGE = 100

/**
 * Most pages read, so the last 1,000 commits: more than land on a busy branch between two runs of
 * a weekly schedule, at one GraphQL request a page (10 of the workflow token's 1,000 an hour at
 * most). A record older than that is let go: the run starts a new job, as it does with no record.
 */
export const MAX_RECORD_PAGES = 10

/** What the next run on the branch needs. */
export interface BranchRecord {
  readonly jobId: string
  /** The branch the job documents. */
  readonly branch: string
  /** The last commit documented before the job began (a full or short sha), when known. */
  readonly since?: string
  /** The commit the job was last told about: the one the record is on. */
  readonly told: string
  /**
   * The check that holds the record is `success`: the job ended with its docs ready (or nothing
   * to do), so a run on that commit has nothing to mend. A failure or an error is read again:
   * the job may have failed, and a new one may be due.
   */
  readonly settled?: boolean
}

// The job id as `encodeJobId` writes it: a record written before ids were encoded (letters,
// digits and `_ . : -`) reads the same.
const ID = /^[\w.:%-]{1,64}$/
const BRANCH = /^[\w./-]{1,100}$/
const SUFFIX = / · job ([\w.:%-]{1,64}) since ([0-9a-f]{7,40}|-) on ([\w./-]{1,100})$/

/**
 * The record's words at the end of the check's description, or undefined when the encoded job id
 * is longer than the description carries or the branch name has characters it does not (no
 * record is kept then). The id is encoded (`encodeJobId`): a space, `/` or `·` in it cannot
 * shift where the words after it are read.
 */
export function recordSuffix(record: Omit<BranchRecord, 'told'>): string | undefined {
  const id = encodeJobId(record.jobId)
  if (!ID.test(id) || !BRANCH.test(record.branch)) return undefined
  return ` · job ${id} since ${record.since?.slice(0, 12) ?? '-'} on ${record.branch}`
}

/** The record a check's description ends with, on the commit `told`. */
export function readRecord(description: string, told: string): BranchRecord | undefined {
  const match = SUFFIX.exec(description)
  if (!match) return undefined
  const [, encoded = '', since = '-', branch = ''] = match
  const jobId = decodeJobId(encoded)
  if (jobId === undefined || jobIdProblem(jobId)) return undefined
  return { jobId, branch, told, ...(since === '-' ? {} : { since }) }
}

/**
 * The newest record of `branch` for the check named `context` that the token's own account
 * wrote, paging back through the history ending on `sha` within `within`, up to
 * `MAX_RECORD_PAGES`. Throws what GitHub threw for the first page; a later page that cannot be
 * read (the time for reading ran out) ends the search, said once in the log.
 */
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

/** The newest record of `branch` on a page of history, written by the token's own account. */
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
