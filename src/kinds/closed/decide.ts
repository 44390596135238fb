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
  const why = { code: 'closed-pull', merged: how === 'merged' } as const
  // No check: the code is done with. The status comment and the docs pull request follow it.
  const effects = [{ kind: 'comment' }, { kind: 'docs-pull', closed: how }] as const
  return { act: 'close', jobId: settings.jobId || own, why, effects }
}

/**
 * What becomes of the docs pull request once its code pull request was closed, as data: the
 * docs pull request sink reads it (`read`) and carries out the answer.
 */
export type DocsClosing =
  /** Nothing is read or written: closed without merging, with `on-code-closed: nothing`. */
  | { readonly act: 'none' }
  /** The docs pull request and its backlink must be read before anything is decided. */
  | { readonly act: 'read' }
  /** The backlink records that the code was merged; the docs pull request stays as it is. */
  | { readonly act: 'record-merged' }
  /**
   * It is closed already, or the backlink says it was abandoned: nothing more is done to it, but
   * the backlink records the code's end when it does not yet (`record`).
   */
  | { readonly act: 'leave'; readonly because: 'docs-closed' | 'marked'; readonly record: boolean }
  /** `on-code-closed`: close it and say why (`close`), or only say it may no longer be needed. */
  | { readonly act: 'close' | 'comment' }

/** The docs pull request as read: its state, and what its backlink says of the code's end. */
export interface DocsSeen {
  readonly state: 'open' | 'closed'
  readonly marked?: 'merged' | 'closed'
}

/**
 * What `on-code-closed` does to the docs pull request: a merge is only noted; a code pull
 * request closed without merging closes the docs one or comments on it once, never a docs pull
 * request already closed or already marked, and nothing is done before it was read. Pure.
 */
export function docsClosing(
  how: 'merged' | 'closed',
  action: 'close' | 'comment' | 'nothing',
  docs?: DocsSeen
): DocsClosing {
  if (how === 'closed' && action === 'nothing') return { act: 'none' }
  if (!docs) return { act: 'read' }
  if (how === 'merged') return { act: 'record-merged' }
  const record = docs.marked !== 'closed'
  if (docs.state === 'closed') return { act: 'leave', because: 'docs-closed', record }
  if (!record) return { act: 'leave', because: 'marked', record }
  return action === 'nothing' ? { act: 'none' } : { act: action }
}
