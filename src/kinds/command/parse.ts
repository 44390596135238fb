/**
 * A `/docs` command in a pull request's conversation: what makes a comment one, and what the
 * reviewer asked. Pure: the event's comment in, a command or the reason it is none out.
 */

/** The comment an `issue_comment` run was started by, as the payload gives it. */
export interface CommandComment {
  /** The activity: only `created` can carry a command. */
  readonly action?: string
  /** The comment is on a pull request (the issue has `pull_request`). */
  readonly onPullRequest: boolean
  readonly body: string
  readonly login?: string
  /** The account's type: `User`, `Bot`, `Organization`. */
  readonly type?: string
}

/** What the comment is: a command with the reviewer's request, or nothing, with why. */
export type Command =
  | { readonly kind: 'command'; readonly request: string; readonly login: string }
  | { readonly kind: 'ignored'; readonly why: string }

/**
 * `/docs` as the first word of the comment's first line: after at most three ASCII spaces, and
 * followed by an ASCII space, a tab, a line break or the end. Markdown shows a line indented by
 * four spaces (or a tab) as code, so it commands nothing; any other character before `/docs` (a
 * byte-order mark, a no-break space, a line or paragraph separator, a zero-width or bidi control)
 * makes a look-alike that is no command, and so does a command on a later line.
 */
const COMMAND = /^ {0,3}\/docs(?=[ \t\r\n]|$)/

/** A bot's account: GitHub types it `Bot`, and its REST login ends in `[bot]`. */
export function isBot(login: string | undefined, type: string | undefined): boolean {
  return type === 'Bot' || login?.toLowerCase().endsWith('[bot]') === true
}

/**
 * Whether the comment is a `/docs` command. Only a comment created on a pull request by a person
 * can be one; the first word of its first line must be exactly `/docs` (see `COMMAND`), and the
 * rest, trimmed, is the request (possibly empty, possibly several lines). The request is the
 * reviewer's text as written: the prompt cleans it as it cleans every other untrusted text.
 */
export function readCommand(comment: CommandComment): Command {
  if (!comment.onPullRequest)
    return { kind: 'ignored', why: 'The comment is on an issue, not a pull request.' }
  if (comment.action !== 'created') {
    return {
      kind: 'ignored',
      why: `The comment was ${comment.action ?? 'changed'}, not created: only a new comment can be a command.`
    }
  }
  if (isBot(comment.login, comment.type))
    return { kind: 'ignored', why: 'The comment is by a bot: bots never command the docs job.' }
  const match = COMMAND.exec(comment.body)
  if (!match || !comment.login)
    return { kind: 'ignored', why: 'The comment does not start with /docs.' }
  return {
    kind: 'command',
    request: comment.body.slice(match[0].length).trim(),
    login: comment.login
  }
}

/** The roles that may command the docs job, as GitHub's collaborator permission API names them. */
export const WRITERS: ReadonlySet<string> = new Set(['admin', 'maintain', 'write'])

/** The roles GitHub names in `role_name`; any other is an organisation's custom role. */
const ROLES: ReadonlySet<string> = new Set(['admin', 'maintain', 'write', 'triage', 'read'])

/**
 * Whether a collaborator's permission lets them command. `role_name` decides where it is one of
 * GitHub's roles (admin, maintain and write may; triage and read may not). A custom role, or no
 * `role_name`, falls back to the legacy `permission` field, which reads maintain as `write` and
 * triage as `read`. Anything else, or no answer, refuses.
 */
export function mayCommand(
  permission: { readonly role?: string; readonly permission?: string } | undefined
): boolean {
  if (!permission) return false
  const { role } = permission
  const decides = role !== undefined && ROLES.has(role) ? role : permission.permission
  return decides !== undefined && WRITERS.has(decides)
}
