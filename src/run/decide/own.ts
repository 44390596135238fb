/** The agent's own work starts no job, lest a job on its merge document the docs, forever. */
import type { Settings } from '../../given/inputs.js'
import type { Facts } from '../read/facts.js'
import { agentByEvent, agentByPulls } from '../read/own.js'
import { eventPullRequest, type Event } from '../../given/event.js'
import { carried } from './keep.js'
import { skip, type Skip } from './plan.js'

export function ownWork(
  settings: Pick<Settings, 'agentAccounts'>,
  event: Event,
  facts: Facts
): Skip | undefined {
  const hand = agentByEvent(settings, event) ?? agentByPulls(settings, facts.pulls, facts.pull)
  if (hand) {
    const pullEvent = eventPullRequest(event) !== undefined
    return skip({ code: 'own', hand, pullEvent }, 'success', carried(facts, event))
  }
  const { pulls } = facts
  if (!pulls.known && pulls.cause === 'failed') {
    // The record stays where it is: the next run tells everything since, this change included.
    return skip({ code: 'own-unknown', why: pulls.why }, 'error')
  }
  return undefined
}
