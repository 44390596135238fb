/**
 * What a comment run learns first: whether it is a command that still stands, whether its author
 * may give one (the permission API, never `author_association`), and the pull request's head,
 * which an `issue_comment` payload lacks. Nothing more is read for anything else.
 */
import { mayCommand, readCommand } from './parse.js'
import { describeGitHubError, type GitHubApi, type PullState } from '../../clients/github/api.js'
import type { Within } from '../../base/runtime.js'
import { forLog } from '../../base/sanitize.js'
import type { Step } from '../../run/step.js'
import type { Event } from '../../given/event.js'
import type { Read, ReadContext } from '../../run/read/read.js'
import { readChange } from '../change/read.js'
import { commandPrompt } from './prompt.js'
import type { CommandFacts } from './facts.js'
import { known, unknown } from '../../run/read/known.js'

interface CommandRead {
  readonly command: CommandFacts
  /** With the pull request's head and fork; without the comment, which the prompt carries. */
  readonly event?: Event
}

/** `answer`: the comment is still there to react to. */
const stop = (why: string, answer = true) => ({ why, answer })
type Stop = ReturnType<typeof stop>

/** A request's answer, or the error it ended with, for the caller to word. */
const settle = <T>(asked: Promise<T>) =>
  asked.then(
    (value) => ({ value }),
    (error: unknown) => ({ error })
  )

async function readCommandFacts(
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

  // A run may wait in the queue while its comment is deleted or edited.
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

  const pull = await pullNow(event, pr.number, comment.createdAt, github, within)
  if ('why' in pull) return stopped(pull)
  const pullRequest = { ...pr, headSha: pull.headSha, fork: pull.fork }
  return { command, event: { ...event, comment: undefined, pullRequest } }
}

/** Why the comment, read again now, no longer carries the command the event gave. */
async function commentChanged(
  event: Event,
  body: string,
  id: number | undefined,
  github: GitHubApi,
  within: Within
): Promise<Stop | undefined> {
  if (id === undefined) return stop('The event gives no id for the comment.', false)
  const now = await settle(
    within((signal) => github.getComment(event.owner, event.repo, id, signal))
  )
  if ('error' in now) {
    const what = describeGitHubError(now.error, 'pull-requests: read')
    return stop(`Could not read the comment again (${what}).`)
  }
  if (!now.value) return stop('The comment was deleted before the run started.', false)
  if (now.value.body === body) return undefined
  return stop(
    'The comment was edited before the run started: only the command as first written is taken, and an edit is none.'
  )
}

/**
 * The pull request as it is now, or why it is no longer the one the command was given on. GitHub
 * keeps no push time and the payload no head, so a head committed after the comment counts as
 * moved; a commit dated earlier than it was pushed is not caught.
 */
async function pullNow(
  event: Event,
  number: number,
  createdAt: string | undefined,
  github: GitHubApi,
  within: Within
): Promise<Stop | PullState> {
  const read = await settle(
    within((signal) => github.getPull(event.owner, event.repo, number, signal))
  )
  if ('error' in read) {
    const what = describeGitHubError(read.error, 'pull-requests: read')
    return stop(
      `Could not read pull request #${number} (${what}), so whether it is open and where its ` +
        'head is are not known.'
    )
  }
  const pull = read.value
  const name = `pull request #${pull.number}`
  if (pull.state === 'closed') {
    const how = pull.merged ? 'merged' : 'closed without merging'
    return stop(
      `${name} is ${how}: a command on a closed pull request starts no docs job, as nothing would follow its docs pull request.`
    )
  }
  const head = pull.headSha
  const written = Date.parse(createdAt ?? '')
  if (!head || !Number.isFinite(written)) {
    const what = head ? 'the event gives no time for the comment' : `GitHub gave no head commit`
    return stop(`${what}, so whether ${name} changed after the command cannot be told.`)
  }
  const short = forLog(head.slice(0, 7), 7)
  const committed = await settle(
    within((signal) => github.committedAt(event.owner, event.repo, head, signal))
  )
  const at = 'value' in committed ? committed.value : undefined
  if (at === undefined) {
    const what =
      'error' in committed
        ? describeGitHubError(committed.error, 'contents: read')
        : 'GitHub gave no date'
    return stop(
      `Could not read when head commit ${short} of ${name} was made (${what}), so whether it came after the command cannot be told.`
    )
  }
  if (Date.parse(at) <= written) return pull
  return stop(
    `The head of ${name} moved after the comment: its head commit ${short} is dated ` +
      `${forLog(at, 40)}, after the comment was written (${forLog(createdAt ?? '', 40)}). ` +
      'Comment /docs again to document it as it is now.'
  )
}

/** What a comment run may learn: only a command to take reads the pull request's change. */
export async function readCommandRun(run: ReadContext): Promise<Read<CommandFacts>> {
  const { settings, event, readers, step } = run
  if (!event) return readChange(run)
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
