/**
 * A code pull request was closed (merged or not): no job is started or messaged. The job its
 * status comment records (or `job-id`) is followed, so the docs pull request can follow the code
 * one. A pull request the agent opened is its own work, and is skipped like any other. Pure.
 */
import type { Settings } from '../inputs.js'
import type { Facts } from '../read/facts.js'
import { agentByEvent } from '../read/own.js'
import { closedPull, type Event } from '../trigger/event.js'
import type { Plan } from './plan.js'

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
  const why = { code: 'closed-pull', merged: closedPull(event) === 'merged' } as const
  return { act: 'close', jobId: settings.jobId || own, why }
}
