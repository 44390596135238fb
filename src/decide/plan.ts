/** What a run does, as data: the act stage carries it out and the presentation words it. */
import type { Settings } from '../inputs.js'
import type { Phase } from '../mintlify/job.js'
import type { AgentHand } from '../read/own.js'
import type { Mode } from '../run.js'
import type { PullRef } from '../trigger/ref.js'

export type { Mode } from '../run.js'

export type DecisionSettings = Pick<Settings, 'agentAccounts' | 'jobId' | 'prompt' | 'projectId'>

/** What the docs check on a branch keeps for the next run there. */
export interface Keep {
  readonly name: string
  /** The last commit documented before the job began. */
  readonly base?: string
  readonly jobId?: string
}

export type Where = { readonly pull: number } | { readonly branch: string }

/** Why the plan is what it is, as data; the presentation puts each code into words. */
export type Why =
  /** `pullEvent`: the run is on the agent's pull request itself. */
  | { readonly code: 'own'; readonly hand: AgentHand; readonly pullEvent: boolean }
  | { readonly code: 'own-unknown'; readonly why: string }
  /** The change itself needs no job (a deleted branch, `paths` that match nothing). */
  | { readonly code: 'change'; readonly text: string }
  /** The job was told this very commit and its docs pull request is merged. */
  | {
      readonly code: 'docs-merged-told'
      readonly jobId: string
      readonly docs?: PullRef
      readonly where: Where
    }
  /** The job was told this very commit, and what became of it cannot be read. */
  | { readonly code: 'nothing-new'; readonly branch: string; readonly since: string }
  | { readonly code: 'reuse-pull'; readonly number: number; readonly jobId: string }
  | {
      readonly code: 'join'
      readonly jobId: string
      readonly branch: string
      readonly docs?: PullRef
    }
  /** The job was told this very commit already: the run follows it to its end. */
  | { readonly code: 'mend'; readonly jobId: string; readonly commit: string }
  /** From here to `docs-unknown`: a new job in place of the recorded one. */
  | { readonly code: 'job-unreadable'; readonly jobId: string; readonly where: Where }
  | {
      readonly code: 'job-ended'
      readonly jobId: string
      readonly phase: Exclude<Phase, 'running' | 'completed'>
      readonly where: Where
    }
  | { readonly code: 'no-link'; readonly jobId: string; readonly where: Where }
  | {
      readonly code: 'docs-done'
      readonly jobId: string
      readonly docs?: PullRef
      readonly state: 'merged' | 'closed'
    }
  | {
      readonly code: 'docs-unknown'
      readonly jobId: string
      readonly docs?: PullRef
      readonly why: string
      readonly where: Where
    }
  /** A record could not be read: nothing is sent, lest a second job start beside one. */
  | {
      readonly code: 'record-unknown'
      readonly what: 'comment' | 'branch' | 'docs'
      readonly where: Where
      readonly why: string
      readonly jobId?: string
      readonly docs?: PullRef
    }
  /** The job's answer names another docs pull request than the record: neither is written to. */
  | {
      readonly code: 'record-mismatch'
      readonly jobId: string
      readonly recorded: PullRef
      readonly named: string
    }
  | KindWhy

/** A plan's words, as the log, the status comment and the check show them. */
export interface PlanWords {
  readonly reason?: string
  /** For the status comment: why the recorded job was not sent the change. */
  readonly note?: string
  readonly warning?: string
  readonly check?: string
}

/** A reason in a kind's own words, which the core shows unread; `then` is the core's that follows. */
export interface KindWhy {
  readonly code: 'kind'
  readonly kind: string
  readonly reason: string
  readonly words: PlanWords
  readonly then?: Why
}

/** What a run writes on GitHub beside the Actions report: each effect is one sink. */
export type Effect =
  | { readonly kind: 'check' }
  | { readonly kind: 'comment' }
  /** With `closed`: what the code pull request's end does to it (`on-code-closed`). */
  | { readonly kind: 'docs-pull'; readonly closed?: 'merged' | 'closed' }
  /** `eyes`, then how the job ended; with `content`, that one reaction (a command not taken). */
  | { readonly kind: 'react'; readonly commentId: number; readonly content?: 'confused' }

export const COMMON_EFFECTS: readonly Effect[] = [
  { kind: 'check' },
  { kind: 'comment' },
  { kind: 'docs-pull' }
]

/** A plan that names no effects has the common ones. */
export function effectsOf(plan: Plan): readonly Effect[] {
  return plan.effects ?? COMMON_EFFECTS
}

/** A run that starts and sends nothing. */
export interface Skip {
  readonly act: 'skip'
  readonly why: Why
  /** `error` when it could not be told, never success; `leave` keeps the commit's record. */
  readonly check: 'success' | 'error' | 'leave'
  readonly keep?: Keep
  readonly effects?: readonly Effect[]
}

/** A run that starts a job, sends one the change, or attaches to one. */
export interface Start {
  readonly act: Mode
  /** '' for a new one. */
  readonly jobId: string
  readonly why?: Why
  readonly reusingFrom?: number
  /**
   * A run that gathers on a branch reads its change from `since` on; `keep` is the branch's record
   * should that change need no job (`nothingToTell`).
   */
  readonly tell?: { readonly since?: string; readonly keep?: Keep }
  readonly keep?: Keep
  /** When the job can take no follow-up, a new one is started with the same change. */
  readonly fallback?: { readonly act: 'create'; readonly keep?: Keep }
  readonly effects?: readonly Effect[]
}

/** A code pull request was closed: the job its comment records, or `job-id`, is followed. */
export interface Close {
  readonly act: 'close'
  readonly jobId?: string
  readonly why: Why
  readonly effects?: readonly Effect[]
}

export type Plan = Skip | Start | Close

export function skip(why: Why, check: Skip['check'], keep?: Keep): Skip {
  return { act: 'skip', why, check, keep }
}

/** A branch's plan whose change, read as `tell` says, needs no job (`paths` match nothing). */
export function nothingToTell(plan: Start, text: string): Skip {
  return skip({ code: 'change', text }, 'success', plan.tell?.keep)
}
