import type { Facts } from '../read/facts.js'
import { pushOf, ZERO_SHA, type Event } from '../../given/event.js'
import type { Keep } from './plan.js'

/** A run that starts nothing carries the branch's record to this commit, for the next run. */
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

/** A record may keep a short sha; the run's head is always a full one. */
export function sameCommit(recorded: string | undefined, head: string | undefined): boolean {
  return recorded && head ? head.startsWith(recorded) : false
}
