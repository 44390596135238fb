/**
 * The record a run on a branch keeps, so that the next run on that branch joins the same docs job:
 * the job, the branch, and the last commit documented before the job began, at the end of the docs
 * check's description on the commit the job was last told about. Only a check written by the
 * token's own account counts (a commit's status holds the latest of each context, so a stranger
 * who writes the same context hides the record rather than replacing it), and it is found in one
 * GraphQL request over the branch's last commits.
 */
import type { Within } from '../runtime.js'
import type { GitHubApi } from './api.js'

/** How many of the branch's last commits are searched for the record. */
export const RECORD_DEPTH = 50

/** What the next run on the branch needs. */
export interface BranchRecord {
  readonly jobId: string
  /** The branch the job documents. */
  readonly branch: string
  /** The last commit documented before the job began (a full or short sha), when known. */
  readonly since?: string
  /** The commit the job was last told about: the one the record is on. */
  readonly told: string
}

const ID = /^[\w.:-]{1,64}$/
const BRANCH = /^[\w./-]{1,100}$/
const SUFFIX = / · job ([\w.:-]{1,64}) since ([0-9a-f]{7,40}|-) on ([\w./-]{1,100})$/

/**
 * The record's words at the end of the check's description, or undefined when the job id or the
 * branch name has characters the description does not carry (no record is kept then).
 */
export function recordSuffix(record: Omit<BranchRecord, 'told'>): string | undefined {
  if (!ID.test(record.jobId) || !BRANCH.test(record.branch)) return undefined
  return ` · job ${record.jobId} since ${record.since?.slice(0, 12) ?? '-'} on ${record.branch}`
}

/** The record a check's description ends with, on the commit `told`. */
export function readRecord(description: string, told: string): BranchRecord | undefined {
  const match = SUFFIX.exec(description)
  if (!match) return undefined
  const [, jobId = '', since = '-', branch = ''] = match
  return { jobId, branch, told, ...(since === '-' ? {} : { since }) }
}

/**
 * The newest record of `branch` for the check named `context` that the token's own account
 * wrote, among the last commits of the history ending on `sha`. Throws what GitHub threw.
 */
export async function findRecord(
  github: Pick<GitHubApi, 'history'>,
  where: { owner: string; repo: string; sha: string; branch: string; context: string },
  within: Within
): Promise<BranchRecord | undefined> {
  const { owner, repo, sha, branch, context } = where
  const history = await within((signal) => github.history(owner, repo, sha, RECORD_DEPTH, signal))
  const account = history.viewer.toLowerCase()
  for (const commit of history.commits) {
    const own = commit.statuses.find(
      (status) => status.context === context && status.creator?.toLowerCase() === account
    )
    const record = own && readRecord(own.description, commit.sha)
    if (record && record.branch === branch) return record
  }
  return undefined
}
