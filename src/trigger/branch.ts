/**
 * Runs on a branch that are not tied to a code pull request (a push, a schedule, a manual run)
 * gather into one docs job: the docs check the last run wrote on the branch records the job (see
 * `github/branch-record.ts`). While that job's docs pull request is open (or the job still runs
 * without one), the change is sent to it; once it is merged or closed, or the job failed, a new
 * job is told everything since the last commit that was documented. Never blind: a docs pull
 * request whose state cannot be read starts a new job, with one warning that says why.
 */
import { findRecord, type BranchRecord } from '../github/branch-record.js'
import type { GitHubApi } from '../github/api.js'
import { readDocsPull, type DocsReaders } from '../github/docs-pull.js'
import { describeGitHubError } from '../github/policy.js'
import type { Settings } from '../inputs.js'
import type { MintlifyApi } from '../mintlify/api.js'
import { classifyStatus } from '../mintlify/job.js'
import { readRecordedJob } from '../mintlify/start.js'
import { checkName } from '../present/check.js'
import { forLog } from '../sanitize.js'
import type { Step } from '../step.js'
import { codeCommit } from './code.js'
import { ZERO_SHA, type Event } from './event.js'
import { pullName } from './ref.js'

/** What a run on a branch does: join a job, or start one, and what it tells it. */
export interface Joined {
  readonly branch: string
  /** The job the change joins; undefined: a new job. */
  readonly jobId?: string
  /** The change is read from this commit on: the last the job (or the docs) was told about. */
  readonly since?: string
  /** The last commit documented before the job began, which the record keeps. */
  readonly base?: string
  /** Why, for the log and the status comment. */
  readonly reason?: string
  /** Nothing changed since the docs were last told: start and send nothing. */
  readonly nothingNew?: boolean
}

/**
 * Finds the branch's record and decides. `api` is undefined on a dry run, which reads no job: it
 * joins the recorded one. Best effort: what cannot be read starts a new job.
 */
export async function joinBranch(
  settings: Settings,
  event: Event,
  branch: string,
  github: GitHubApi,
  readers: DocsReaders,
  api: MintlifyApi | undefined,
  step: Step
): Promise<Joined> {
  const head = codeCommit(event)?.sha ?? ''
  const before = event.name === 'push' && event.before && !ZERO_SHA.test(event.before)
  const fresh = (since: string | undefined, reason?: string): Joined =>
    settle({ branch, since, base: since, reason }, head)
  let record: BranchRecord | undefined
  try {
    const where = { owner: event.owner, repo: event.repo, sha: head, branch }
    const context = checkName(settings.projectId)
    record = await findRecord(
      github,
      { ...where, context },
      step.within(step.budgets.lookup),
      step.log
    )
  } catch (error: unknown) {
    step.log.warning(
      `Could not read the docs checks on ${forLog(branch, 100)} ` +
        `(${describeGitHubError(error, 'statuses: read')}), so no earlier docs job is found: a ` +
        'new one is started, as on every run until they can be read.'
    )
    return fresh(before ? event.before : undefined)
  }
  if (!record) return fresh(before ? event.before : undefined)
  const id = forLog(record.jobId, 100)
  if (!api) {
    return settle({ branch, jobId: record.jobId, since: record.told, base: record.since }, head)
  }
  const job = await readRecordedJob(api, record.jobId, step.lookupSchedule(), step)
  // What cannot be read is not known to be undocumented: only what is new goes to a new job.
  if (!job)
    return fresh(
      record.told,
      `Agent job ${id} recorded on ${branch} could not be read, so a new job was started.`
    )
  const { phase } = classifyStatus(job.status)
  if (phase === 'failed' || phase === 'archived') {
    return fresh(
      record.since,
      `Agent job ${id} recorded on ${branch} ${phase}, so a new job was started.`
    )
  }
  if (!job.prLink) {
    return phase === 'running'
      ? join(
          record,
          `This change joins agent job ${id}, still running on ${branch} (reuse-job: true).`,
          head
        )
      : fresh(
          record.told,
          `Agent job ${id} completed without a docs pull request, so a new job was started.`
        )
  }
  const docs = await readDocsPull(job, event, readers, step.within(step.budgets.lookup))
  const name = docs?.ref ? pullName(docs.ref) : 'its docs pull request'
  switch (docs?.state) {
    case 'open':
      return join(
        record,
        `This change joins agent job ${id} and its open docs pull request ${name} on ${branch} (reuse-job: true).`,
        head
      )
    case 'merged':
      return fresh(
        record.told,
        `Docs pull request ${name} of agent job ${id} was merged, so a new job was started.`
      )
    case 'closed':
      return fresh(
        record.since,
        `Docs pull request ${name} of agent job ${id} was closed without merging, so a new job was started.`
      )
    default:
      step.log.warning(
        `${docs?.why ?? 'The docs pull request could not be read.'} Its state is not known, so ` +
          `this change went to a new docs job: runs on ${branch} gather into one docs pull ` +
          'request only while it can be read.'
      )
      return fresh(
        record.told,
        `Docs pull request ${name} could not be read, so a new job was started.`
      )
  }
}

/** Joins the recorded job: the change since the last commit it was told about. */
function join(record: BranchRecord, reason: string, head: string): Joined {
  const { branch, jobId, told, since } = record
  return settle({ branch, jobId, since: told, base: since, reason }, head)
}

/** Nothing new when the change would start where it ends. */
function settle(joined: Joined, head: string): Joined {
  const since = joined.since
  const same =
    since !== undefined && head !== '' && (head.startsWith(since) || since.startsWith(head))
  return same ? { ...joined, nothingNew: true } : joined
}
