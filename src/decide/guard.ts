/**
 * The guards every kind of run passes. Whatever a kind plans, a plan that would start, message,
 * attach to or follow a job becomes a skip when the change is the agent's own work, when whether
 * a job is recorded could not be read, or when the recorded job's answer names another docs pull
 * request than the record. The registry wraps every kind's decision in them (`guarded`), so a new
 * kind cannot leave them out. Pure.
 */
import type { Facts } from '../read/facts.js'
import { agentByEvent } from '../read/own.js'
import { closedPull, type Event } from '../trigger/event.js'
import { carried } from './keep.js'
import { ownWork } from './own.js'
import { effectsOf, type DecisionSettings, type Effect, type Plan, type Skip } from './plan.js'
import { unknownRecord } from './record-unknown.js'

/** The skip a guard demands of a run that would act, or undefined when every guard passes. */
export function guard(
  settings: DecisionSettings,
  event: Event | undefined,
  facts: Facts
): Skip | undefined {
  if (!event) return undefined
  // A closed pull request's commits are its own: only its author can make it the agent's.
  const hand = closedPull(event) ? agentByEvent(settings, event) : undefined
  if (hand) return { act: 'skip', why: { code: 'own', hand, pullEvent: true }, check: 'success' }
  const own = closedPull(event) ? undefined : ownWork(settings, event, facts)
  if (own) return own
  // `job-id` names the job: no record is consulted.
  if (settings.jobId) return undefined
  const blind = unknownRecord(event, facts)
  if (blind) return blind
  const job = facts.job
  if (job?.mismatch) {
    const { recorded, named } = job.mismatch
    return {
      act: 'skip',
      why: { code: 'record-mismatch', jobId: job.jobId, recorded, named },
      check: 'error',
      keep: carried(facts, event)
    }
  }
  return undefined
}

/**
 * A kind's decision behind the guards: a plan that acts is replaced by the guard's skip, which
 * writes only the check and the status comment the plan would have (never the docs pull
 * request, nor a command's acknowledgement).
 */
export function guarded<E extends Event | undefined>(
  decide: (settings: DecisionSettings, event: E, facts: Facts) => Plan
): (settings: DecisionSettings, event: E, facts: Facts) => Plan {
  return (settings, event, facts) => {
    const plan = decide(settings, event, facts)
    if (plan.act === 'skip') return plan
    const stop = guard(settings, event, facts)
    if (!stop) return plan
    const says = (effect: Effect) => effect.kind === 'check' || effect.kind === 'comment'
    return { ...stop, effects: effectsOf(plan).filter(says) }
  }
}
