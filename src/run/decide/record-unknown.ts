/** A record GitHub did not answer for starts no job beside the one it may name: a re-run will. */
import type { Facts } from '../read/facts.js'
import type { Knowable } from '../read/known.js'
import type { Event } from '../../given/event.js'
import { carried } from './keep.js'
import { skip, type Skip, type Where } from './plan.js'

export function unknownRecord(event: Event, facts: Facts): Skip | undefined {
  const { pull, branch } = facts
  const blind = (what: 'comment' | 'branch', where: Where, read: Knowable<unknown> | undefined) =>
    read && !read.known && read.cause === 'failed'
      ? skip({ code: 'record-unknown', what, where, why: read.why }, 'error', carried(facts, event))
      : undefined
  return (
    (pull && blind('comment', { pull: pull.number }, pull.recorded)) ||
    (branch && blind('branch', { branch: branch.name }, branch.record)) ||
    undefined
  )
}
