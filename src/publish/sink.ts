import type { Bounded } from '../runtime.js'
import type { RunState } from '../run.js'

/**
 * A place the action reports the run to besides the Actions report: the status comment, the
 * check, the docs pull request. A sink says what the presentation decided; it never decides what
 * happened, and its failures are warnings that never change the step's outcome.
 */
export interface Sink {
  /** The job exists and the step waits for it: written beside the polling, which never waits. */
  started?(state: RunState): void
  /** The run ended (however it did): the last write, bounded by `within`. */
  finished(state: RunState, within: Bounded): Promise<void>
}

/** Runs every sink's last write at once, each bounded by `within`; none can fail the others. */
export async function finishAll(
  sinks: readonly Sink[],
  state: RunState,
  within: Bounded
): Promise<void> {
  await Promise.allSettled(sinks.map((sink) => sink.finished(state, within)))
}
