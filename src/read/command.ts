/**
 * What a comment run may learn before anything else is read: whether the comment is a `/docs`
 * command, whether its author may give one (GitHub's collaborator permission API, never
 * `author_association`), and the pull request's head commit, where the docs check belongs (an
 * `issue_comment` payload has none, and `GITHUB_SHA` is the default branch's). Nothing else is
 * read for a comment that is no command or whose author may not command: not even the recorded
 * job. Bounded by the lookup budget; what could not be read is `unknown`.
 */
import { mayCommand, readCommand } from '../command/parse.js'
import type { GitHubApi } from '../github/api.js'
import { describeGitHubError } from '../github/policy.js'
import type { Step } from '../step.js'
import type { Event } from '../trigger/event.js'
import type { CommandFacts } from './facts.js'
import { known, unknown } from './known.js'

export interface CommandRead {
  readonly command: CommandFacts
  /**
   * The event as the rest of the run reads it, for a command that may go on: its pull request
   * with the head commit GitHub gave, and without the comment, which the prompt carries as the
   * request.
   */
  readonly event?: Event
}

/** The command a comment carries, who gave it, and the pull request's head commit. */
export async function readCommandFacts(
  event: Event,
  github: GitHubApi | undefined,
  step: Step
): Promise<CommandRead> {
  const comment = event.comment
  const pr = event.pullRequest
  const parsed = readCommand({
    action: event.action,
    onPullRequest: pr !== undefined,
    body: comment?.body ?? '',
    login: comment?.author,
    type: comment?.authorType
  })
  if (parsed.kind === 'ignored') return { command: parsed }
  const { request, login } = parsed
  const commentId = comment?.id
  if (!github || !pr) {
    const why = 'No github-token was given, so who may command could not be asked.'
    return { command: { kind: 'command', request, login, commentId, permission: unknown(why) } }
  }
  const within = step.within(step.budgets.lookup)
  const { owner, repo } = event
  const permission = await within((signal) => github.permission(owner, repo, login, signal)).then(
    (answer) => known(answer),
    (error: unknown) =>
      unknown(
        `Could not read what ${login} may do in ${owner}/${repo}: ` +
          `${describeGitHubError(error, 'metadata: read')}.`
      )
  )
  const command = { kind: 'command', request, login, commentId, permission } as const
  if (!mayCommand(permission.known ? permission.value : undefined)) return { command }
  const headSha = await within((signal) => github.getPull(owner, repo, pr.number, signal)).then(
    (pull) => pull.headSha,
    (error: unknown) => {
      step.log.warning(
        `Could not read pull request #${pr.number} (${describeGitHubError(error, 'pull-requests: read')}), ` +
          'so its head commit is not known: no docs check is written for this command.'
      )
      return undefined
    }
  )
  return {
    command,
    event: { ...event, comment: undefined, pullRequest: { ...pr, headSha } }
  }
}
