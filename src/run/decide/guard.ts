/** The guards every kind passes: the registry wraps every kind in them, so none can skip them. */
import type { Facts } from '../read/facts.js'
import { agentByEvent } from '../read/own.js'
import { closedPull, type Event } from '../../given/event.js'
import { carried } from './keep.js'
import { ownWork } from './own.js'
import { effectsOf, skip } from './plan.js'
import type { DecisionSettings, Effect, Plan, Skip } from './plan.js'
import { unknownRecord } from './record-unknown.js'

/** The skip for a run that would act on the agent's own work, or on an unknown or false record. */
export function guard(
  settings: DecisionSettings,
  event: Event | undefined,
  facts: Facts
): Skip | undefined {
  if (!event) return undefined
  // A closed pull request's commits are its own: only its author can make it the agent's.
  const hand = closedPull(event) ? agentByEvent(settings, event) : undefined
  if (hand) return skip({ code: 'own', hand, pullEvent: true }, 'success')
  const own = closedPull(event) ? undefined : ownWork(settings, event, facts)
  if (own) return own
  if (settings.jobId) return undefined
  const blind = unknownRecord(event, facts)
  if (blind) return blind
  const job = facts.job
  if (!job?.mismatch) return undefined
  const { recorded, named } = job.mismatch
  const why = { code: 'record-mismatch', jobId: job.jobId, recorded, named } as const
  return skip(why, 'error', carried(facts, event))
}

type Decide<E> = (settings: DecisionSettings, event: E, facts: Facts) => Plan

/** A kind's decision behind the guards, whose skip writes only the plan's check and comment. */
export function guarded<E extends Event | undefined>(decide: Decide<E>): Decide<E> {
  return (settings, event, facts) => {
    const plan = decide(settings, event, facts)
    if (plan.act === 'skip') return plan
    const stop = guard(settings, event, facts)
    if (!stop) return plan
    const says = (effect: Effect) => effect.kind === 'check' || effect.kind === 'comment'
    return { ...stop, effects: effectsOf(plan).filter(says) }
  }
}
