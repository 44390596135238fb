/**
 * A code pull request was closed (merged or not): no job is started or messaged. The job its
 * status comment records (or `job-id`) is followed, so the docs pull request can follow the code
 * one, as `docsClosing` says once it was read. A pull request the agent opened is its own work,
 * and is skipped like any other. Pure.
 */
import type { Settings } from '../../inputs.js'
import type { Facts } from '../../read/facts.js'
import { agentByEvent } from '../../read/own.js'
import { closedPull, type Event } from '../../trigger/event.js'
import type { Plan } from '../../decide/plan.js'
import { closedWhy } from './words.js'

export function decideClosed(
  settings: Pick<Settings, 'agentAccounts' | 'jobId' | 'projectId'>,
  event: Event,
  facts: Facts
): Plan {
  const hand = agentByEvent(settings, event)
  if (hand) return { act: 'skip', why: { code: 'own', hand, pullEvent: true }, check: 'success' }
  const recorded = facts.pull?.recorded
  const record = recorded?.known ? recorded.value : undefined
  const own = record?.projectId === settings.projectId ? record.jobId : undefined
  const how = closedPull(event) === 'merged' ? 'merged' : 'closed'
  const why = closedWhy(how === 'merged')
  // No check: the code is done with. The status comment and the docs pull request follow it.
  const effects = [{ kind: 'comment' }, { kind: 'docs-pull', closed: how }] as const
  return { act: 'close', jobId: settings.jobId || own, why, effects }
}
