/**
 * Reactions to a `/docs` comment: `eyes` as its job is asked for, then the report's `rocket` or
 * `confused` whatever failed; a command not taken gets one `confused`. Safe to send again.
 */
import type { Reaction } from '../../clients/github/api.js'
import { sendingAgain } from '../../clients/github/policy.js'
import type { Resolved } from '../../run/decide/check.js'
import { reactionFailed } from '../plan.js'
import { reportOf } from '../report.js'
import type { Within } from '../../base/runtime.js'
import type { Sink, SinkContext } from './sink.js'

/**
 * Where the plan has reactions on the comment that commanded it (`react`), with a token and no
 * dry run.
 */
export function reactionSink(
  context: SinkContext,
  effect: Extract<Resolved, { kind: 'react' }>
): Sink | undefined {
  const { settings, trigger, github, log } = context
  const event = trigger?.event
  if (settings.dryRun || !github || !event) return undefined
  // Best effort: a failure is a warning and never changes the docs job.
  const react = (content: Reaction, bounds: Within) =>
    bounds((signal) =>
      github.react(event.owner, event.repo, effect.commentId, content, signal)
    ).then(
      () => undefined,
      (error: unknown) => log.warning(reactionFailed(error))
    )
  return {
    // Seen: `eyes` as the command's job is asked for, beside the start, never waited for.
    taking: () => {
      if (!effect.content) void react('eyes', context.time.within('write'))
    },
    // How the job ended; or the one inert reaction of a command not taken.
    finished: async (state, within, time) => {
      const content = effect.content ?? reportOf(state).reaction
      if (content) await react(content, time ? sendingAgain(time, time.by) : within)
      return undefined
    }
  }
}
