/** The run's state as the story fills it: once the run has read, and as the run ends. */
import type { DocsReaders } from '../clients/github/docs-pull.js'
import type { MintlifyApi } from '../clients/mintlify/api.js'
import type { Reporter } from '../report/sinks/report.js'
import type { Sink } from '../report/sinks/sink.js'
import type { Step } from '../run/step.js'
import { CancelledError, DeadlineError, SecretsWithheldError } from '../base/errors.js'
import type { Settings } from '../given/inputs.js'
import { FOLLOWED_NO_FURTHER } from '../report/plan.js'
import type { Facts } from '../run/read/facts.js'
import { newRunState, type Outcome, type RunState } from '../run/state.js'
import type { Log } from '../base/runtime.js'
import { triggerOf } from '../run/change/code.js'
import type { Event } from '../given/event.js'

/** What the act stage's steps share of one run. */
export interface Run {
  readonly state: RunState
  readonly sinks: readonly Sink[]
  readonly settings: Settings
  readonly step: Step
  readonly report: Reporter
  /** The tokens that may read the docs pull request. */
  readonly readers: DocsReaders
  /** The Mintlify API; undefined on a dry run, which sends it nothing. */
  readonly api?: MintlifyApi
}

/** A run's state once read; a recorded job read with the key shows the project id accepted. */
export function readState(
  startedAt: number,
  settings: Pick<Settings, 'projectId' | 'failOnNoPr'>,
  event: Event | undefined,
  facts: Pick<Facts, 'job'>
): RunState {
  return {
    ...newRunState(startedAt),
    projectId: settings.projectId,
    failOnNoPr: settings.failOnNoPr,
    trigger: event && triggerOf(event),
    ...(facts.job?.phase.known ? { accepted: true } : {})
  }
}

/**
 * Ends the run with what `error` says. A job seen to end stays ended, whatever a cancel or the
 * deadline interrupts after it: the run says it followed the job no further.
 */
export function endWith(state: RunState, error: unknown, timeoutMs: number, log: Log): void {
  const stopped = error instanceof CancelledError || error instanceof DeadlineError
  if (stopped && state.outcome.kind === 'finished') {
    const note = `${FOLLOWED_NO_FURTHER} ${error.message}`
    state.notes.push(note)
    return log.info(note)
  }
  state.outcome = outcomeOf(error, state.job?.id, timeoutMs)
}

/** The outcome an error gives a run: a deadline is a timeout only once there is a job. Pure. */
export function outcomeOf(
  error: unknown,
  jobId: string | null | undefined,
  timeoutMs: number
): Outcome {
  if (error instanceof CancelledError) return { kind: 'cancelled', reason: error.message }
  if (error instanceof SecretsWithheldError) {
    return { kind: 'skipped', reason: error.message, notice: true }
  }
  if (error instanceof DeadlineError && jobId) {
    return { kind: 'timeout', timeoutMs, unread: (error.last ?? error).message }
  }
  return { kind: 'error', error }
}
