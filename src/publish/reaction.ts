/**
 * The `/docs` comment's second acknowledgement, as a sink: once the command was taken (`eyes`),
 * the run always ends with an answer on the comment, whatever failed: `rocket` when the job
 * completed (or, with `wait: false`, was started or messaged), `confused` when it failed or was
 * archived, or the run could not see it through (a failed create or follow-up, a timeout, a
 * cancellation). A reaction is safe to send again (GitHub answers the same one with 200).
 */
import type { GitHubApi, Reaction } from '../github/api.js'
import { describeGitHubError, sendingAgain } from '../github/policy.js'
import { classifyStatus } from '../mintlify/job.js'
import type { RunState } from '../run.js'
import type { LastTime, Log, Within } from '../runtime.js'
import type { Sink, SinkContext, Wrote } from './sink.js'

/** On a comment run (only a command taken gets sinks), with a token and no dry run. */
export function reactionSink(context: SinkContext): Sink | undefined {
  const { settings, trigger, github } = context
  const event = trigger?.event
  if (settings.dryRun || !github || event?.occasion !== 'comment') return undefined
  return new ReactionSink(github, event.owner, event.repo, context.log)
}

/**
 * The reaction that ends a command: how the job ended, or `confused` when the run ended without
 * seeing it through; none for a run that took no job (a skip, a dry run).
 */
export function endReaction(state: Pick<RunState, 'outcome' | 'job'>): Reaction | undefined {
  const { outcome } = state
  switch (outcome.kind) {
    case 'skipped':
    case 'dry-run':
      return undefined
    case 'finished':
      return outcome.phase === 'completed' ? 'rocket' : 'confused'
    case 'started': {
      const { phase } = classifyStatus(state.job?.status)
      return phase === 'failed' || phase === 'archived' ? 'confused' : 'rocket'
    }
    default:
      return 'confused'
  }
}

class ReactionSink implements Sink {
  constructor(
    private readonly github: GitHubApi,
    private readonly owner: string,
    private readonly repo: string,
    private readonly log: Log
  ) {}

  async finished(state: RunState, within: Within, time?: LastTime): Promise<Wrote | undefined> {
    const content = endReaction(state)
    const commentId = state.acknowledge?.commentId
    if (!content || commentId === undefined) return undefined
    const bounds = time ? sendingAgain(time, time.by) : within
    try {
      await bounds((signal) => this.github.react(this.owner, this.repo, commentId, content, signal))
    } catch (error: unknown) {
      this.log.warning(
        `Could not react to the /docs comment (${describeGitHubError(error, 'pull-requests: write')}); ` +
          'the docs job is not affected.'
      )
    }
    return undefined
  }
}
