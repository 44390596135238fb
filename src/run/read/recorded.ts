/** The records a run may continue: a branch's docs check, and the job a record names. */
import { findRecord, type BranchRecord } from '../../clients/github/branch-record.js'
import { describeGitHubError, type GitHubApi } from '../../clients/github/api.js'
import { readDocsPull, type DocsReaders } from '../../clients/github/docs-pull.js'
import type { MintlifyApi } from '../../clients/mintlify/api.js'
import { classifyStatus } from '../../clients/mintlify/job.js'
import { readJob } from '../../clients/mintlify/read-job.js'
import { ApiError, cancellation, errorMessage } from '../../base/errors.js'
import { describeLink, forLog } from '../../base/sanitize.js'
import type { Step } from '../step.js'
import { codeCommit } from '../change/code.js'
import type { Event } from '../../given/event.js'
import { parsePullLink, pullName, sameRepo, type PullRef } from '../../given/ref.js'
import type { Facts, JobFacts } from './facts.js'
import { causeOf, known, unknown, type Knowable, type Unknown } from './known.js'

/** The branch's record for the check named `context`, however many commits landed since. */
export async function readBranchRecord(
  event: Event,
  branch: string,
  context: string,
  github: GitHubApi,
  step: Step
): Promise<Knowable<BranchRecord | undefined>> {
  const sha = codeCommit(event)?.sha ?? ''
  try {
    const where = { owner: event.owner, repo: event.repo, sha, branch, context }
    return known(await findRecord(github, where, step.time.within('lookup'), step.log))
  } catch (error: unknown) {
    const cause = causeOf(error)
    const could = `Could not read the docs checks on ${forLog(branch, 100)} (${describeGitHubError(error, 'statuses: read')})`
    step.log.warning(
      cause === 'failed'
        ? `${could}, so whether they record a docs job is not known: nothing is sent, and a ` +
            're-run once GitHub answers sends it.'
        : `${could}, so no earlier docs job is found: a new one is started, as on every run ` +
            'until they can be read.'
    )
    return unknown(`The docs checks on ${forLog(branch, 100)} could not be read.`, cause)
  }
}

/** The job `jobId` and its docs pull request's state, each read once; unknown on a dry run. */
export async function readRecordedJob(
  jobId: string,
  from: JobFacts['from'],
  event: Event,
  readers: DocsReaders,
  api: MintlifyApi | undefined,
  step: Step,
  recordedDocs?: PullRef
): Promise<JobFacts> {
  const read = (facts: Omit<JobFacts, 'jobId' | 'from'>): JobFacts => ({ jobId, from, ...facts })
  const none = (why: Unknown) => read({ phase: why, docs: why })
  if (!api) return none(unknown('A dry run sends Mintlify nothing, not even a read.', 'not-asked'))
  const id = forLog(jobId, 100)
  // Its retries end within the lookup budget, so a job that cannot be read leaves the step its time.
  const job = await readOrRefused(api, jobId, step)
  if (!job) return none(unknown(`Agent job ${id} could not be read.`))
  const phase = known(classifyStatus(job.status).phase)
  if (!job.prLink) return read({ phase, docs: known('none') })
  const mismatch = mismatchOf(job.prLink, event.serverUrl, recordedDocs)
  if (mismatch) {
    const why = `The job's answer names ${mismatch.named}, not the recorded one.`
    return read({ phase, docs: unknown(why, 'not-asked'), mismatch })
  }
  const docs = await readDocsPull(job, event, readers, step.time.within('lookup'), recordedDocs)
  const docsRef = docs?.ref
  if (!docs || docs.state === 'unknown' || docs.state === 'foreign') {
    const why = docs?.why ?? `The docs pull request of agent job ${id} could not be read.`
    // A link elsewhere, no token for it or a refusal is the same on every run.
    const failed = docs?.failure !== undefined && !['refused', 'invalid'].includes(docs.failure)
    return read({ phase, docs: unknown(why, failed ? 'failed' : 'not-asked'), docsRef })
  }
  return read({ phase, docs: known(docs.state), docsRef })
}

/** The docs pull request the status comment records for `jobId`, the only one its runs touch. */
export function recordedDocs(facts: Pick<Facts, 'pull'>, jobId: string | null | undefined) {
  const recorded = facts.pull?.recorded.known ? facts.pull.recorded.value : undefined
  return jobId && recorded?.jobId === jobId ? recorded.docs : undefined
}

/** The record is what GitHub showed; the job's link is the platform's data, so it must agree. */
function mismatchOf(
  link: string,
  serverUrl: string,
  recorded: PullRef | undefined
): JobFacts['mismatch'] {
  if (!recorded) return undefined
  const named = parsePullLink(link, serverUrl)
  if (named && sameRepo(named, recorded) && named.number === recorded.number) return undefined
  return { recorded, named: named ? pullName(named) : describeLink(link) }
}

/**
 * The job, or undefined when it cannot be read in time; a refused key (401, 403) is thrown, as a
 * create would be refused too.
 */
async function readOrRefused(api: MintlifyApi, jobId: string, step: Step) {
  try {
    return await readJob(api, jobId, step.time.schedule('lookup'), step)
  } catch (error: unknown) {
    if (step.signal.aborted) throw cancellation(step.signal)
    const failure = error instanceof ApiError ? error.failure : undefined
    if (failure?.kind === 'http' && [401, 403].includes(failure.status)) throw error
    const why = forLog(errorMessage(error), 300)
    step.log.info(`Agent job ${forLog(jobId, 100)} could not be read: ${why}`)
    return undefined
  }
}
