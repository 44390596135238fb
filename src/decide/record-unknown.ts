/** A record GitHub did not answer for starts no job beside the one it may name: a re-run will. */
import type { Facts } from '../read/facts.js'
import type { Knowable, Unknown } from '../read/known.js'
import type { Event } from '../trigger/event.js'
import { carried } from './keep.js'
import type { Skip, Why } from './plan.js'

/** The skip of a run whose record is not known, or undefined when it is. */
export function unknownRecord(event: Event, facts: Facts): Skip | undefined {
  const { pull, branch } = facts
  const comment = failed(pull?.recorded)
  if (pull && comment) {
    return blind(
      { code: 'record-unknown', what: 'comment', where: { pull: pull.number }, why: comment.why },
      facts,
      event
    )
  }
  const checks = failed(branch?.record)
  if (branch && checks) {
    return blind(
      { code: 'record-unknown', what: 'branch', where: { branch: branch.name }, why: checks.why },
      facts,
      event
    )
  }
  return undefined
}

function blind(why: Why, facts: Facts, event: Event): Skip {
  return { act: 'skip', why, check: 'error', keep: carried(facts, event) }
}

function failed(value: Knowable<unknown> | undefined): Unknown | undefined {
  return value && !value.known && value.cause === 'failed' ? value : undefined
}
