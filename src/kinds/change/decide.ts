/**
 * A recorded job is sent more only while known to be running or its docs pull request known open;
 * else a new job is told everything since. One told this very commit is followed, to mend a re-run.
 */
import type { Recorded } from '../../clients/github/companion.js'
import type { Settings } from '../../given/inputs.js'
import type { BranchFacts, Facts, JobFacts, PullFacts } from '../../run/read/facts.js'
import { codeCommit } from '../../run/change/code.js'
import type { Event } from '../../given/event.js'
import { carried, pushedOnto, sameCommit } from '../../run/decide/keep.js'
import { ownWork } from '../../run/decide/own.js'
import { unknownRecord } from '../../run/decide/record-unknown.js'
import {
  skip,
  type Keep,
  type Plan,
  type Skip,
  type Start,
  type Why
} from '../../run/decide/plan.js'

export function decideChange(
  settings: Pick<Settings, 'agentAccounts' | 'jobId' | 'prompt' | 'projectId'>,
  event: Event | undefined,
  facts: Facts
): Plan {
  const own = event && ownWork(settings, event, facts)
  if (own) return own
  const keep = event && carried(facts, event)
  const prepared = facts.prepared
  if (prepared?.skip) return skip({ code: 'change', text: prepared.skip }, 'success', keep)
  if (settings.jobId) {
    const prompt = prepared ? prepared.prompt : settings.prompt
    return { act: prompt ? 'follow-up' : 'attach', jobId: settings.jobId }
  }
  const blindly = event && unknownRecord(event, facts)
  if (blindly) return blindly
  const { pull, job, branch } = facts
  const recorded = pull?.recorded.known ? pull.recorded.value : undefined
  const plan: Plan =
    event && pull && recorded && job?.from === 'pull'
      ? fromPull(settings, event, pull, recorded, job, keep)
      : event && branch && !recorded
        ? fromBranch(event, facts, branch)
        : { act: 'create', jobId: '', keep }
  // On a branch that gathers, the change is read once the plan says from which commit.
  return branch && plan.act !== 'skip' && plan.act !== 'close'
    ? { ...plan, tell: { ...plan.tell, keep } }
    : plan
}

/** The job the status comment records; a command's `request` is never taken as told already. */
export function fromPull(
  settings: Pick<Settings, 'projectId'>,
  event: Event,
  pull: PullFacts,
  recorded: Recorded,
  job: JobFacts,
  keep: Keep | undefined,
  request = false
): Plan {
  const { jobId } = job
  const where = { pull: pull.number }
  const create = (why?: Why): Start => ({ act: 'create', jobId: '', why, keep })
  // Projects never share a job, whatever a comment says.
  if (recorded.projectId !== settings.projectId || recorded.jobId !== jobId) return create()
  const follow: Start = {
    act: 'follow-up',
    jobId,
    reusingFrom: pull.number,
    why: { code: 'reuse-pull', number: pull.number, jobId },
    fallback: { act: 'create', keep },
    keep
  }
  if (!job.phase.known) {
    // A dry run sends nothing and reads nothing: it shows what a follow-up would send.
    return job.phase.cause === 'not-asked'
      ? follow
      : create({ code: 'job-unreadable', jobId, where })
  }
  const phase = job.phase.value
  if (phase === 'failed' || phase === 'archived') {
    return create({ code: 'job-ended', jobId, phase, where })
  }
  if (!job.docs.known) {
    const { why, cause } = job.docs
    const docs = job.docsRef
    return cause === 'failed'
      ? skip({ code: 'record-unknown', what: 'docs', where, why, jobId, docs }, 'error', keep)
      : create({ code: 'docs-unknown', jobId, docs, why, where })
  }
  const docs = job.docs.value
  if (!request && docs === 'merged' && recorded.sha && recorded.sha === pull.headSha) {
    return skip({ code: 'docs-merged-told', jobId, docs: job.docsRef, where }, 'success', keep)
  }
  if (docs === 'merged' || docs === 'closed') {
    return create({ code: 'docs-done', jobId, docs: job.docsRef, state: docs })
  }
  // Told this very commit already: follow the job to its end, so a re-run mends the check.
  const commit = codeCommit(event)?.sha
  if (!request && commit !== undefined && sameCommit(recorded.sha, commit)) {
    return { act: 'attach', jobId, why: { code: 'mend', jobId, commit }, keep }
  }
  if (docs === 'none' && phase === 'completed') return create({ code: 'no-link', jobId, where })
  return follow
}

/** The job the branch's docs check records, for a run that gathers on the branch. */
function fromBranch(event: Event, facts: Facts, branch: BranchFacts): Plan {
  const name = branch.name
  const head = codeCommit(event)?.sha
  const record =
    branch.record.known && branch.record.value?.branch === name ? branch.record.value : undefined
  const fresh = (since: string | undefined, why?: Why): Plan =>
    since !== undefined && sameCommit(since, head)
      ? skip({ code: 'nothing-new', branch: name, since }, 'leave')
      : { act: 'create', jobId: '', why, tell: { since }, keep: { name, base: since } }
  if (!record) return fresh(pushedOnto(event))

  const { jobId, told, since } = record
  const where = { branch: name }
  const toldHere = head !== undefined && sameCommit(told, head)
  const keep: Keep = { name, base: since }
  const idle = (why: Why, check: Skip['check']) => skip(why, check, { ...keep, jobId })
  const nothingNew = idle({ code: 'nothing-new', branch: name, since: told }, 'leave')
  const mend = (commit: string): Start => ({
    act: 'attach',
    jobId,
    why: { code: 'mend', jobId, commit },
    keep
  })
  const join = (why: Why): Start => ({
    act: 'follow-up',
    jobId,
    why,
    tell: { since: told },
    keep,
    fallback: { act: 'create', keep: { name, base: told } }
  })
  const job = facts.job?.from === 'branch' && facts.job.jobId === jobId ? facts.job : undefined
  if (!job || !job.phase.known) {
    if (job?.phase.known === false && job.phase.cause === 'not-asked') {
      return toldHere ? nothingNew : join({ code: 'join', jobId, branch: name })
    }
    // What cannot be read is not known to be undocumented: only what is new goes to a new job.
    return toldHere ? nothingNew : fresh(told, { code: 'job-unreadable', jobId, where })
  }
  const phase = job.phase.value
  if (phase === 'failed' || phase === 'archived') {
    return fresh(since, { code: 'job-ended', jobId, phase, where })
  }
  if (!job.docs.known) {
    if (toldHere) return nothingNew
    const { why, cause } = job.docs
    // GitHub did not answer this time: the job may be at work on its docs pull request.
    if (cause === 'failed') {
      return idle(
        { code: 'record-unknown', what: 'docs', where, why, jobId, docs: job.docsRef },
        'error'
      )
    }
    return fresh(told, { code: 'docs-unknown', jobId, docs: job.docsRef, why, where })
  }
  const docs = job.docs.value
  switch (docs) {
    case 'open':
      return toldHere ? mend(head) : join({ code: 'join', jobId, branch: name, docs: job.docsRef })
    case 'none':
      if (toldHere) return mend(head)
      return phase === 'running'
        ? join({ code: 'join', jobId, branch: name })
        : fresh(told, { code: 'no-link', jobId, where })
    case 'merged':
      return toldHere
        ? idle({ code: 'docs-merged-told', jobId, docs: job.docsRef, where }, 'success')
        : fresh(told, { code: 'docs-done', jobId, docs: job.docsRef, state: docs })
    case 'closed':
      return fresh(since, { code: 'docs-done', jobId, docs: job.docsRef, state: docs })
  }
}
