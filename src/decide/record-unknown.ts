/**
 * A record that could not be read yields no job beside the one it may name: when GitHub did not
 * answer whether the pull request's status comment or the branch's docs checks record a job (a
 * 5xx, no answer in time, a broken connection), nothing is sent, the check says so (never
 * success), and a re-run once GitHub answers does the work once. A read the token may not make
 * (a refused permission, no token) is the workflow's choice, the same on every run: it is not
 * unknown here, and the run goes on as without a record. Pure.
 */
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

/** Nothing is sent, the check is no success, and a branch's known record is carried forward. */
export function blind(why: Why, facts: Facts, event: Event): Skip {
  return { act: 'skip', why, check: 'error', keep: carried(facts, event) }
}

/** A read that was asked and not answered (`not-asked` is no failure). */
function failed(value: Knowable<unknown> | undefined): Unknown | undefined {
  return value && !value.known && value.cause === 'failed' ? value : undefined
}
