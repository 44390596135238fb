/**
 * One sink per effect a plan can have, resolved for the run (`run/decide/check.ts`). A new place is
 * one effect, one module with a factory and one line here.
 */
import type { Resolved } from '../../run/decide/check.js'
import type { DocsReaders } from '../../clients/github/docs-pull.js'
import type { Read } from '../../run/read/read.js'
import type { RunState } from '../../run/state.js'
import { checkSink } from './check.js'
import { commentSink } from './comment.js'
import { docsPullSink } from './docs-pr.js'
import { reactionSink } from './reaction.js'
import type { Sink, SinkContext } from './sink.js'

/** The sink of each effect: undefined where it does not apply (no token, a dry run, …). */
const SINKS: {
  readonly [K in Resolved['kind']]: (
    context: SinkContext,
    effect: Extract<Resolved, { kind: K }>
  ) => Sink | undefined
} = { check: checkSink, comment: commentSink, 'docs-pull': docsPullSink, react: reactionSink }

/** The sinks of a plan's effects, resolved for this run (`resolveEffects`), in their order. */
export function sinksFor(effects: readonly Resolved[], context: SinkContext): Sink[] {
  // Each effect meets the factory of its own kind, a pairing the compiler cannot follow here.
  return effects.flatMap((effect) => SINKS[effect.kind](context, effect as never) ?? [])
}

/** The sinks of a run's resolved effects, from what it read: nowhere, for a comment that is no command. */
export function sinksOf(
  effects: readonly Resolved[],
  run: Pick<SinkContext, 'settings' | 'log' | 'time'> & {
    readonly state: RunState
    readonly read: Read
    readonly readers: DocsReaders
  }
): Sink[] {
  const { settings, state, read, readers, log, time } = run
  const recorded = read.facts.pull?.recorded
  return sinksFor(effects, {
    settings,
    trigger: state.trigger,
    companion: read.companion,
    commented: recorded?.known === true && recorded.value !== undefined,
    github: readers.workflow,
    docsGitHub: readers.docs,
    log,
    time
  })
}
