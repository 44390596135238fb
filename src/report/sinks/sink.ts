/**
 * A place the action reports the run to: it renders the report and carries out what the decision
 * planned, deciding only what its own writes need, never what happened. Its failures are
 * warnings; only the Actions report says whether the step failed.
 */
import type { GitHubApi } from '../../clients/github/api.js'
import type { Companion } from '../../clients/github/companion.js'
import type { Settings } from '../../given/inputs.js'
import { reportOf, type Report } from '../report.js'
import { recordWrote, type RunState, type Trigger, type Written } from '../../run/state.js'
import type { LastTime, Log, Within } from '../../base/runtime.js'
import type { StepTime } from '../../run/step.js'

/** What a sink is given to decide whether it applies, and to write. */
export interface SinkContext {
  readonly settings: Settings
  readonly trigger?: Trigger
  readonly github?: GitHubApi
  readonly docsGitHub?: GitHubApi
  /** The code pull request's status comment, when the run found the pull request. */
  readonly companion?: Companion
  /** The run found the status comment for this project: an earlier run wrote it. */
  readonly commented?: boolean
  /** A write beside the job is bounded by `write`; one safe to send again (a status) by `held`. */
  readonly time: Pick<StepTime, 'within'>
  readonly log: Log
}

/** Where a sink wrote, for the outputs and the summary, and what it did on GitHub. */
export interface Wrote {
  readonly written?: Written
  readonly url?: string
  /** What it did on GitHub, a line each, which the log gives once the run is over. */
  readonly did?: readonly string[]
  /** The step fails: the Actions report said why. */
  readonly failed?: boolean
}

export interface Sink {
  /** Finished after every other sink, with where they wrote (the Actions report). */
  readonly last?: boolean
  /** The job is about to be asked for: written beside the start, never waited for. */
  taking?(state: RunState): void
  /** The job exists and the step waits for it: written beside the polling, which never waits. */
  started?(state: RunState): void
  /** The docs pull request is known ready while the run follows the preview; never waited for. */
  ready?(state: RunState): void
  /** A code pull request was closed: follow it. Returns a line for the run's notes. */
  closed?(state: RunState, within: Within): Promise<string | undefined>
  /** The run ended, however it did: the last write, bounded by `within` (and `time`). */
  finished(state: RunState, within: Within, time?: LastTime): Promise<Wrote | undefined>
}

/** A surface that shows the report once it is over, after the sinks that write on GitHub. */
export function surface(render: (report: Report) => void | Promise<void>): Sink {
  return { last: true, finished: async (state) => void (await render(reportOf(state))) }
}

export function takeAll(sinks: readonly Sink[], state: RunState): void {
  for (const sink of sinks) sink.taking?.(state)
}

/** Every sink's `closed`, at once; the notes they hand back, in the sinks' order. */
export async function closeAll(
  sinks: readonly Sink[],
  state: RunState,
  within: Within
): Promise<string[]> {
  const notes = await Promise.all(sinks.map(async (sink) => sink.closed?.(state, within)))
  return notes.filter((note) => note !== undefined)
}

/**
 * Every sink's last write at once (none can fail the others), recorded in the run state; then
 * the `last` sinks say it. Resolves to whether the step fails.
 */
export async function finishAll(
  sinks: readonly Sink[],
  state: RunState,
  within: Within,
  time?: LastTime
): Promise<boolean> {
  const first = sinks.filter((sink) => !sink.last)
  const settled = await Promise.allSettled(first.map((sink) => sink.finished(state, within, time)))
  recordWrote(
    state,
    settled.flatMap((done) => (done.status === 'fulfilled' && done.value ? [done.value] : []))
  )
  let failed = false
  for (const sink of sinks.filter((sink) => sink.last)) {
    failed = (await sink.finished(state, within, time))?.failed === true || failed
  }
  return failed
}
