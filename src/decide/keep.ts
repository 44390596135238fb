/** What a branch's docs check keeps, by what the run does. Pure. */
import type { Facts } from '../read/facts.js'
import { pushOf, ZERO_SHA, type Event } from '../trigger/event.js'
import type { Keep } from './plan.js'

/**
 * The branch's record as it is, for a run that starts nothing: carried forward to this commit,
 * so the next run finds it here. A push whose pull request records a job records that job on
 * the branch. Undefined when the run does not gather or no record is known.
 */
export function carried(facts: Facts, event: Event): Keep | undefined {
  const branch = facts.branch
  if (!branch) return undefined
  const pull = facts.pull?.recorded
  const viaPull = pull?.known ? pull.value : undefined
  if (viaPull) return { name: branch.name, base: pushedOnto(event), jobId: viaPull.jobId }
  const record = branch.record.known ? branch.record.value : undefined
  if (!record || record.branch !== branch.name) return undefined
  return { name: branch.name, base: record.since, jobId: record.jobId }
}

/** The commit before a push, when it names one (not a branch's creation). */
export function pushedOnto(event: Event): string | undefined {
  const before = pushOf(event)?.before
  return before && !ZERO_SHA.test(before) ? before : undefined
}

/**
 * Whether a record's commit (`recorded`, possibly a short sha) is the run's head commit (always a
 * full sha: a payload's or `GITHUB_SHA`).
 */
export function sameCommit(recorded: string | undefined, head: string | undefined): boolean {
  return recorded && head ? head.startsWith(recorded) : false
}
