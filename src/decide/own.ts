/**
 * The agent's own work never starts or messages a job, whatever `comment` says: a pull request
 * one of `agent-accounts` opened, a push of only their commits, a commit of their pull request
 * (its merge, however many pull requests it belongs to), a docs pull request the action follows.
 * When GitHub did not say which pull requests the commit belongs to (a 502, no answer in time),
 * nothing is started either: a missed run is mended by re-running it, while a job started on the
 * agent's own merge documents the docs (with auto-merge, on its own forever). The check then says
 * it could not tell (never success). A token that may not ask (no token, `pull-requests: read`
 * refused) is the workflow's choice, the same on every run, and said once: the run goes on. Pure.
 */
import type { Settings } from '../inputs.js'
import type { Facts } from '../read/facts.js'
import { agentByEvent, agentByPulls } from '../read/own.js'
import { eventPullRequest, type Event } from '../trigger/event.js'
import { carried } from './keep.js'
import type { Skip } from './plan.js'

export function ownWork(
  settings: Pick<Settings, 'agentAccounts'>,
  event: Event,
  facts: Facts
): Skip | undefined {
  const hand = agentByEvent(settings, event) ?? agentByPulls(settings, facts.pulls, facts.pull)
  if (hand) {
    const pullEvent = eventPullRequest(event) !== undefined
    return {
      act: 'skip',
      why: { code: 'own', hand, pullEvent },
      check: 'success',
      keep: carried(facts, event)
    }
  }
  const { pulls } = facts
  if (!pulls.known && pulls.cause === 'failed') {
    // The record stays where it is: the next run tells everything since, this change included.
    return { act: 'skip', why: { code: 'own-unknown', why: pulls.why }, check: 'error' }
  }
  return undefined
}
