/**
 * The one list of places the action reports to on GitHub. A new place is one module with a
 * factory (see `sink.ts`) and one line here. `main.ts` builds the list once a run has a plan,
 * and builds none for a comment that is no command to take, which writes nothing on GitHub.
 */
import { checkSink } from './check.js'
import { commentSink } from './comment.js'
import { docsPullSink } from './docs-pr.js'
import { reactionSink } from './reaction.js'
import type { Sink, SinkContext, SinkFactory } from './sink.js'

export const SINKS: readonly SinkFactory[] = [checkSink, commentSink, docsPullSink, reactionSink]

/** The sinks that apply to this run. */
export function sinksFor(context: SinkContext): Sink[] {
  return SINKS.flatMap((factory) => factory(context) ?? [])
}
