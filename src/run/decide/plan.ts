/** What a run does, as data: the act stage carries it out and the presentation words it. */
import type { Settings } from '../../given/inputs.js'
import type { Phase } from '../../clients/mintlify/job.js'
import type { AgentHand } from '../read/own.js'
import type { Mode } from '../state.js'
import type { PullRef } from '../../given/ref.js'

export type { Mode } from '../state.js'

export type DecisionSettings = Pick<Settings, 'agentAccounts' | 'jobId' | 'prompt' | 'projectId'>

/** What the docs check on a branch keeps for the next run there. */
export interface Keep {
  readonly name: string
  /** The last commit documented before the job began. */
  readonly base?: string
  readonly jobId?: string
}

export type Where = { readonly pull: number } | { readonly branch: string }

type OnJob<C extends string, X> = Readonly<{ code: C; jobId: string } & X>

/** Why the plan is what it is, as data; the presentation puts each code into words. */
export type Why =
  /** `pullEvent`: the run is on the agent's pull request itself. */
  | { readonly code: 'own'; readonly hand: AgentHand; readonly pullEvent: boolean }
  | { readonly code: 'own-unknown'; readonly why: string }
  /** The change itself needs no job (a deleted branch, `paths` that match nothing). */
  | { readonly code: 'change'; readonly text: string }
  /** The job was told this very commit and its docs pull request is merged. */
  | OnJob<'docs-merged-told', { docs?: PullRef; where: Where }>
  /** The job was told this very commit, and what became of it cannot be read. */
  | { readonly code: 'nothing-new'; readonly branch: string; readonly since: string }
  | OnJob<'reuse-pull', { number: number }>
  | OnJob<'join', { branch: string; docs?: PullRef }>
  /** The job was told this very commit already: the run follows it to its end. */
  | OnJob<'mend', { commit: string }>
  /** From here to `docs-unknown`: a new job in place of the recorded one. */
  | OnJob<'job-unreadable', { where: Where }>
  | OnJob<'job-ended', { phase: Exclude<Phase, 'running' | 'completed'>; where: Where }>
  | OnJob<'no-link', { where: Where }>
  | OnJob<'docs-done', { docs?: PullRef; state: 'merged' | 'closed' }>
  | OnJob<'docs-unknown', { docs?: PullRef; why: string; where: Where }>
  /** A record could not be read: nothing is sent, lest a second job start beside one. */
  | Readonly<{
      code: 'record-unknown'
      what: 'comment' | 'branch' | 'docs'
      where: Where
      why: string
      jobId?: string
      docs?: PullRef
    }>
  /** The job's answer names another docs pull request than the record: neither is written to. */
  | OnJob<'record-mismatch', { recorded: PullRef; named: string }>
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
  /** A branch that gathers reads its change from `since`; `keep` if it needs no job. */
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
