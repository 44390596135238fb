/**
 * What a run does, as data: the decision's answer, which the act stage carries out and the
 * presentation puts into words. Nothing here reads or writes anything.
 */
import type { Settings } from '../inputs.js'
import type { Phase } from '../mintlify/job.js'
import type { AgentHand } from '../read/own.js'
import type { Mode } from '../run.js'
import type { PullRef } from '../trigger/ref.js'

export type { Mode } from '../run.js'

/** What the decision reads of the settings. */
export type DecisionSettings = Pick<Settings, 'agentAccounts' | 'jobId' | 'prompt' | 'projectId'>

/** What the docs check on a branch keeps for the next run there (see `github/branch-record.ts`). */
export interface Keep {
  readonly name: string
  /** The last commit documented before the job began. */
  readonly base?: string
  /** The job the record names when the run itself works with none (it starts nothing). */
  readonly jobId?: string
}

/** Where a record was found: the pull request's status comment, or the branch's docs check. */
export type Where = { readonly pull: number } | { readonly branch: string }

/** Why the plan is what it is, as data. */
export type Why =
  /** The change is the agent's own work. `pullEvent`: the run is on the pull request itself. */
  | { readonly code: 'own'; readonly hand: AgentHand; readonly pullEvent: boolean }
  /** It cannot be told whether the change is the agent's own. */
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
  /** The pull request's comment records a job still at work: it gets the change. */
  | { readonly code: 'reuse-pull'; readonly number: number; readonly jobId: string }
  /** The branch's record names a job still running, or whose docs pull request is open. */
  | {
      readonly code: 'join'
      readonly jobId: string
      readonly branch: string
      readonly docs?: PullRef
    }
  /** The job was told this very commit already: the run follows it to its end. */
  | { readonly code: 'mend'; readonly jobId: string; readonly commit: string }
  /** The recorded job could not be read: a new job. */
  | { readonly code: 'job-unreadable'; readonly jobId: string; readonly where: Where }
  /** The recorded job failed or was archived: a new job. */
  | {
      readonly code: 'job-ended'
      readonly jobId: string
      readonly phase: Exclude<Phase, 'running' | 'completed'>
      readonly where: Where
    }
  /** The recorded job completed without a docs pull request: a new job. */
  | { readonly code: 'no-link'; readonly jobId: string; readonly where: Where }
  /** The recorded job's docs pull request is merged or closed: a new job. */
  | {
      readonly code: 'docs-done'
      readonly jobId: string
      readonly docs?: PullRef
      readonly state: 'merged' | 'closed'
    }
  /** The recorded job's docs pull request's state could not be read: a new job, never blind. */
  | {
      readonly code: 'docs-unknown'
      readonly jobId: string
      readonly docs?: PullRef
      readonly why: string
      readonly where: Where
    }
  /**
   * Whether a job is recorded, or what became of the recorded one, could not be read (the status
   * comment, the branch's docs checks, or the recorded job's docs pull request): nothing is sent,
   * so no second job starts beside one that may exist; a re-run does the work once.
   */
  | {
      readonly code: 'record-unknown'
      readonly what: 'comment' | 'branch' | 'docs'
      readonly where: Where
      readonly why: string
      readonly jobId?: string
      readonly docs?: PullRef
    }
  /**
   * The record names docs pull request `recorded` for the job, and the job's answer names
   * another (`named`): nothing is started, and neither is written to.
   */
  | {
      readonly code: 'record-mismatch'
      readonly jobId: string
      readonly recorded: PullRef
      readonly named: string
    }
  /** A kind of run's own reason: the core shows its words and never reads it. */
  | KindWhy

/** A plan's words, as the log, the status comment and the check show them. */
export interface PlanWords {
  /** Why, for the log; for a skip, the outcome's reason. */
  readonly reason?: string
  /** A line for the status comment: why the recorded job was not sent the change. */
  readonly note?: string
  /** An annotation the run owes its users. */
  readonly warning?: string
  /** For a skip: what the docs check says. */
  readonly check?: string
}

/**
 * A reason a kind of run gives in its own words (`src/kinds/<name>/`). `reason` names it for
 * tests and the log; `then` is the core reason that follows it (a command taken goes to a job).
 */
export interface KindWhy {
  readonly code: 'kind'
  readonly kind: string
  readonly reason: string
  readonly words: PlanWords
  readonly then?: Why
}

/**
 * What a run writes on GitHub beside the Actions report: each effect is one sink
 * (`publish/sinks.ts`). A plan that names none has the common ones (`COMMON_EFFECTS`).
 */
export type Effect =
  /** The docs check on the change's commit, where `check` and the event allow one. */
  | { readonly kind: 'check' }
  /** The status comment on the code pull request, where `comment` allows one. */
  | { readonly kind: 'comment' }
  /**
   * The docs pull request: its backlink, reviewers and labels; or, with `closed`, what the code
   * pull request's end does to it (`on-code-closed`).
   */
  | { readonly kind: 'docs-pull'; readonly closed?: 'merged' | 'closed' }
  /**
   * Reactions on the comment that commanded the run: `eyes` as its job is asked for, then how
   * the job ended; or, with `content`, that one reaction only (a command not taken).
   */
  | { readonly kind: 'react'; readonly commentId: number; readonly content?: 'confused' }

/** What a run about a change writes: the check, the status comment, the docs pull request. */
export const COMMON_EFFECTS: readonly Effect[] = [
  { kind: 'check' },
  { kind: 'comment' },
  { kind: 'docs-pull' }
]

/** The effects a plan has: its own, or the common ones. */
export function effectsOf(plan: Plan): readonly Effect[] {
  return plan.effects ?? COMMON_EFFECTS
}

/** A run that starts and sends nothing. */
export interface Skip {
  readonly act: 'skip'
  readonly why: Why
  /**
   * What the docs check says: `success` (nothing to document, or documented already), `error`
   * (it could not be told: never success), or `leave` (the check on the commit holds the record).
   */
  readonly check: 'success' | 'error' | 'leave'
  /** The branch's record, carried forward to this commit. */
  readonly keep?: Keep
  /** What it writes on GitHub, when not the common effects: none, for a comment that is no command. */
  readonly effects?: readonly Effect[]
}

/** A run that starts a job, sends one the change, or attaches to one. */
export interface Start {
  readonly act: Mode
  /** The job to continue; '' for a new one. */
  readonly jobId: string
  readonly why?: Why
  /** The pull request whose status comment records the job (a follow-up from `reuse-job`). */
  readonly reusingFrom?: number
  /**
   * A run that gathers on a branch: the change is told from this commit on (undefined: the
   * change as the event shows it). The act stage reads it, then decides again with it.
   */
  readonly tell?: { readonly since?: string }
  /** The branch's record for the job this run ends with. */
  readonly keep?: Keep
  /**
   * When the job refuses the follow-up (it can take no more), a new job is started with the same
   * change, and the branch keeps this record.
   */
  readonly fallback?: { readonly act: 'create'; readonly keep?: Keep }
  /** What it writes on GitHub, when not the common effects (a command adds its reactions). */
  readonly effects?: readonly Effect[]
}

/** A code pull request was closed: the job its comment records (or `job-id`) is followed. */
export interface Close {
  readonly act: 'close'
  readonly jobId?: string
  readonly why: Why
  readonly effects?: readonly Effect[]
}

export type Plan = Skip | Start | Close
