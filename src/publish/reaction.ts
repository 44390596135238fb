/**
 * The `/docs` comment's second acknowledgement, as a sink: when the job it started or messaged
 * ends, a reaction says how (`rocket` completed, `confused` failed or archived). A run that stops
 * waiting before the job ends leaves only the first (`eyes`, as the command was taken).
 */
import type { GitHubApi, Reaction } from '../github/api.js'
import { describeGitHubError } from '../github/policy.js'
import type { RunState } from '../run.js'
import type { Log, Within } from '../runtime.js'
import type { Sink, SinkContext, Wrote } from './sink.js'

/** On a comment run (only a command taken gets sinks), with a token and no dry run. */
export function reactionSink(context: SinkContext): Sink | undefined {
  const { settings, trigger, github } = context
  const event = trigger?.event
  if (settings.dryRun || !github || event?.name !== 'issue_comment') return undefined
  return new ReactionSink(github, event.owner, event.repo, context.log)
}

/** The reaction that says how the job ended; none while it has not. */
export function endReaction(state: Pick<RunState, 'outcome'>): Reaction | undefined {
  const { outcome } = state
  if (outcome.kind !== 'finished') return undefined
  return outcome.phase === 'completed' ? 'rocket' : 'confused'
}

class ReactionSink implements Sink {
  constructor(
    private readonly github: GitHubApi,
    private readonly owner: string,
    private readonly repo: string,
    private readonly log: Log
  ) {}

  async finished(state: RunState, within: Within): Promise<Wrote | undefined> {
    const content = endReaction(state)
    const commentId = state.acknowledge?.commentId
    if (!content || commentId === undefined) return undefined
    try {
      await within((signal) => this.github.react(this.owner, this.repo, commentId, content, signal))
    } catch (error: unknown) {
      this.log.warning(
        `Could not react to the /docs comment (${describeGitHubError(error, 'pull-requests: write')}); ` +
          'the docs job is not affected.'
      )
    }
    return undefined
  }
}
