/** Which pull request and commit the code change is about, decided in this one place. */
import { eventPullRequest, onBranchOf, pushOf, ZERO_SHA, type Event } from '../../given/event.js'
import type { Settings } from '../../given/inputs.js'
import type { Trigger } from '../state.js'
import type { CommitRef, PullRef } from '../../given/ref.js'

/**
 * The commit the code change ends on, where a check about it belongs: the pull request's head
 * for pull request events (`GITHUB_SHA` is the test merge commit there), the pushed commit for a
 * push, `GITHUB_SHA` otherwise.
 */
export function codeCommit(event: Event): CommitRef | undefined {
  const pr = eventPullRequest(event)
  const after = pushOf(event)?.after
  const pushed = after && !ZERO_SHA.test(after)
  const sha = pr ? pr.headSha : pushed ? after : event.sha
  return sha ? { owner: event.owner, repo: event.repo, sha } : undefined
}

/** The pull request the event names itself (pull request events), with its head commit. */
export function codePull(event: Event): PullRef | undefined {
  const pr = eventPullRequest(event)
  return pr
    ? { owner: event.owner, repo: event.repo, number: pr.number, headSha: pr.headSha }
    : undefined
}

/**
 * The branch a run gathers on into one docs job: a push to a branch, a schedule or a manual run
 * on one, with `reuse-job`, `context: auto` and no `job-id`.
 */
export function gathersOn(
  { reuseJob, jobId, context }: Pick<Settings, 'reuseJob' | 'jobId' | 'context'>,
  event: Event
): string | undefined {
  const onBranch = pushOf(event) !== undefined || onBranchOf(event) !== undefined
  if (!reuseJob || jobId || context !== 'auto' || !onBranch || event.deleted) return undefined
  return /^refs\/heads\/(.+)$/.exec(event.ref ?? '')?.[1]
}

/** The change that started the workflow, as the sinks need it. */
export function triggerOf(event: Event): Trigger {
  return { event, pull: codePull(event), commit: codeCommit(event), runUrl: event.runUrl }
}
