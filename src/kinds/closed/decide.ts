/**
 * A closed code pull request starts or messages no job: the one its status comment records is
 * followed, so the docs pull request can follow the code one.
 */
import type { Settings } from '../../given/inputs.js'
import type { Facts } from '../../run/read/facts.js'
import { agentByEvent } from '../../run/read/own.js'
import { closedPull, type Event } from '../../given/event.js'
import { skip, type Plan } from '../../run/decide/plan.js'
import { closedWhy } from './words.js'

export function decideClosed(
  settings: Pick<Settings, 'agentAccounts' | 'jobId' | 'projectId'>,
  event: Event,
  facts: Facts
): Plan {
  const hand = agentByEvent(settings, event)
  if (hand) return skip({ code: 'own', hand, pullEvent: true }, 'success')
  const recorded = facts.pull?.recorded
  const record = recorded?.known ? recorded.value : undefined
  const own = record?.projectId === settings.projectId ? record.jobId : undefined
  const how = closedPull(event) === 'merged' ? 'merged' : 'closed'
  const why = closedWhy(how === 'merged')
  // No check: the code is done with. The status comment and the docs pull request follow it.
  const effects = [{ kind: 'comment' }, { kind: 'docs-pull', closed: how }] as const
  return { act: 'close', jobId: settings.jobId || own, why, effects }
}
