/**
 * The one place the action reacts to a `/docs` comment: `eyes` as a command's job is asked for,
 * and the run always ends with an answer on the comment, whatever failed: `rocket` when the job
 * completed (or, with `wait: false`, was started or messaged), `confused` when it failed or was
 * archived, or the run could not see it through (a failed create or follow-up, a timeout, a
 * cancellation). A command not taken gets one `confused` and nothing else. A reaction is safe to send again (GitHub answers the same one with 200).
 */
import type { GitHubApi, Reaction } from '../github/api.js'
import { sendingAgain } from '../github/policy.js'
import type { Effect } from '../decide/plan.js'
import { reactionFailed } from '../present/plan.js'
import { reportOf } from '../present/report.js'
import type { RunState } from '../run.js'
import type { LastTime, Within } from '../runtime.js'
import type { Sink, SinkContext, Wrote } from './sink.js'

/**
 * Where the plan has reactions on the comment that commanded it (`react`), with a token and no
 * dry run.
 */
export function reactionSink(
  context: SinkContext,
  effect: Extract<Effect, { kind: 'react' }>
): Sink | undefined {
  const { settings, trigger, github } = context
  const event = trigger?.event
  if (settings.dryRun || !github || !event) return undefined
  return new ReactionSink(github, event.owner, event.repo, effect, context)
}

class ReactionSink implements Sink {
  private readonly github: GitHubApi
  private readonly owner: string
  private readonly repo: string
  private readonly effect: Extract<Effect, { kind: 'react' }>
  private readonly context: Pick<SinkContext, 'withinWrite' | 'log'>

  constructor(
    github: GitHubApi,
    owner: string,
    repo: string,
    effect: Extract<Effect, { kind: 'react' }>,
    context: Pick<SinkContext, 'withinWrite' | 'log'>
  ) {
    this.github = github
    this.owner = owner
    this.repo = repo
    this.effect = effect
    this.context = context
  }

  /** Seen: `eyes` as the command's job is asked for, beside the start, never waited for. */
  taking(): void {
    if (this.effect.content) return
    void this.react('eyes', this.context.withinWrite(new AbortController().signal))
  }

  /** How the job ended; or the one inert reaction of a command not taken. */
  async finished(state: RunState, within: Within, time?: LastTime): Promise<Wrote | undefined> {
    const content = this.effect.content ?? reportOf(state).reaction
    if (!content) return undefined
    await this.react(content, time ? sendingAgain(time, time.by) : within)
    return undefined
  }

  /** One reaction, best effort: a failure is a warning and never changes the docs job. */
  private async react(content: Reaction, bounds: Within): Promise<void> {
    const { commentId } = this.effect
    try {
      await bounds((signal) => this.github.react(this.owner, this.repo, commentId, content, signal))
    } catch (error: unknown) {
      this.context.log.warning(reactionFailed(error))
    }
  }
}
