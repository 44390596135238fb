/**
 * What a comment run may learn before anything else is read: whether the comment is a `/docs`
 * command, whether it still stands, whether its author may give one (GitHub's collaborator
 * permission API, never `author_association`), and the pull request as the command saw it: open,
 * its head commit (where the docs check belongs: an `issue_comment` payload has none, and
 * `GITHUB_SHA` is the default branch's) and whether it comes from a fork. Nothing else is read for a comment that is no command or whose
 * author may not command: not even the recorded job. Bounded by the lookup budget; what could
 * not be read is `unknown`, and a command whose standing could not be read is not carried out.
 */
import { mayCommand, readCommand } from './parse.js'
import { describeGitHubError, type GitHubApi, type PullState } from '../../github/api.js'
import type { Within } from '../../runtime.js'
import { forLog } from '../../sanitize.js'
import type { Step } from '../../step.js'
import type { Event } from '../../trigger/event.js'
import type { Read, ReadContext } from '../../read/read.js'
import { readChange } from '../change/read.js'
import { commandPrompt } from './prompt.js'
import type { CommandFacts } from './facts.js'
import { known, unknown } from '../../read/known.js'

export interface CommandRead {
  readonly command: CommandFacts
  /**
   * The event as the rest of the run reads it, for a command that may go on: its pull request
   * with the head commit GitHub gave and the fork it comes from, and without the comment, which
   * the prompt carries as the request.
   */
  readonly event?: Event
}

/** Why a command does not stand, and whether its comment is still there to react to. */
interface Stop {
  readonly why: string
  readonly answer: boolean
}

/** The command a comment carries, who gave it, and the pull request as the command saw it. */
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
  if (!github || !pr || !comment) {
    const why = 'No github-token was given, so who may command could not be asked.'
    return { command: { kind: 'command', request, login, commentId, permission: unknown(why) } }
  }
  const within = step.time.within('lookup')
  const { owner, repo } = event
  const stopped = ({ why, answer }: Stop): CommandRead => ({
    command: { kind: 'stopped', login, commentId, why, answer }
  })

  // A command deleted or edited while its run waited in the queue no longer stands.
  const gone = await commentChanged(event, comment.body, commentId, github, within)
  if (gone) return stopped(gone)

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

  const pull = await within((signal) => github.getPull(owner, repo, pr.number, signal)).catch(
    (error: unknown) => ({
      why:
        `Could not read pull request #${pr.number} (${describeGitHubError(error, 'pull-requests: read')}), ` +
        'so whether it is open and where its head is are not known.',
      answer: true
    })
  )
  if ('why' in pull) return stopped(pull)
  const moved = await pullChanged(event, pull, comment.createdAt, github, within)
  if (moved) return stopped(moved)
  return {
    command,
    event: {
      ...event,
      comment: undefined,
      pullRequest: { ...pr, headSha: pull.headSha, fork: pull.fork }
    }
  }
}

/**
 * Why the comment no longer carries the command the event gave, read from GitHub now: deleted
 * (404), edited (its body is not the payload's), or not readable. Undefined when it stands.
 */
async function commentChanged(
  event: Event,
  body: string,
  id: number | undefined,
  github: GitHubApi,
  within: Within
): Promise<Stop | undefined> {
  if (id === undefined) return { why: 'The event gives no id for the comment.', answer: false }
  const now = await within((signal) => github.getComment(event.owner, event.repo, id, signal)).then(
    (found) => ({ found }),
    (error: unknown) => ({ error })
  )
  if ('error' in now) {
    const what = describeGitHubError(now.error, 'pull-requests: read')
    return { why: `Could not read the comment again (${what}).`, answer: true }
  }
  if (!now.found) return { why: 'The comment was deleted before the run started.', answer: false }
  if (now.found.body !== body) {
    return {
      why: 'The comment was edited before the run started: only the command as first written is taken, and an edit is none.',
      answer: true
    }
  }
  return undefined
}

/**
 * Why the pull request is no longer the one the command was given on: closed (merged or not:
 * nothing would follow a docs pull request then), or its head moved after the comment. GitHub
 * keeps no time of a push for a pull request's commits, and the `issue_comment` payload names no
 * head commit, so the head is taken to have moved when its commit's date (`committer.date`) is
 * later than the comment's `created_at`. A commit dated earlier than it was pushed is not caught.
 */
async function pullChanged(
  event: Event,
  pull: PullState,
  createdAt: string | undefined,
  github: GitHubApi,
  within: Within
): Promise<Stop | undefined> {
  const name = `pull request #${pull.number}`
  if (pull.state === 'closed') {
    const how = pull.merged ? 'merged' : 'closed without merging'
    return {
      why: `${name} is ${how}: a command on a closed pull request starts no docs job, as nothing would follow its docs pull request.`,
      answer: true
    }
  }
  const head = pull.headSha
  const written = Date.parse(createdAt ?? '')
  if (!head || !Number.isFinite(written)) {
    const what = head ? 'the event gives no time for the comment' : `GitHub gave no head commit`
    return {
      why: `${what}, so whether ${name} changed after the command cannot be told.`,
      answer: true
    }
  }
  const short = forLog(head.slice(0, 7), 7)
  const committed = await within((signal) =>
    github.committedAt(event.owner, event.repo, head, signal)
  ).then(
    (at) => ({ at }),
    (error: unknown) => ({ error })
  )
  if ('error' in committed || committed.at === undefined) {
    const what =
      'error' in committed
        ? describeGitHubError(committed.error, 'contents: read')
        : 'GitHub gave no date'
    return {
      why: `Could not read when head commit ${short} of ${name} was made (${what}), so whether it came after the command cannot be told.`,
      answer: true
    }
  }
  if (Date.parse(committed.at) > written) {
    return {
      why:
        `The head of ${name} moved after the comment: its head commit ${short} is dated ` +
        `${forLog(committed.at, 40)}, after the comment was written (${forLog(createdAt ?? '', 40)}). ` +
        'Comment /docs again to document it as it is now.',
      answer: true
    }
  }
  return undefined
}

/**
 * What a comment run may learn: whether it is a command to take, and only then, the change of the
 * pull request commented on, as the reviewer's request asks for it.
 */
export async function readCommandRun(run: ReadContext): Promise<Read<CommandFacts>> {
  const { settings, event, readers, step } = run
  if (!event) return readChange(run)
  // Only a command, from someone who may give one, reads anything more.
  const { command, event: seen } = await readCommandFacts(event, readers.workflow, step)
  if (!seen || command.kind !== 'command') {
    const why = 'A comment that is not a command to take reads nothing more.'
    return { facts: { pulls: unknown(why, 'not-asked'), kind: command } }
  }
  const prompt = commandPrompt({
    prompt: settings.prompt,
    request: command.request,
    login: command.login,
    number: seen.pullRequest?.number ?? 0
  })
  // The reviewer asked for it: `paths` does not skip a command.
  const asked = { ...settings, prompt, paths: [] }
  const read = await readChange({ ...run, settings: asked, event: seen })
  return { ...read, facts: { ...read.facts, kind: command }, event: seen }
}
