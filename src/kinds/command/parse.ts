/** What makes a comment a `/docs` command, and who may give one. */

/** The comment an `issue_comment` run was started by, as the payload gives it. */
export interface CommandComment {
  readonly action?: string
  readonly onPullRequest: boolean
  readonly body: string
  readonly login?: string
  /** `User`, `Bot` or `Organization`. */
  readonly type?: string
}

export type Command =
  | { readonly kind: 'command'; readonly request: string; readonly login: string }
  | { readonly kind: 'ignored'; readonly why: string }

/**
 * Markdown shows a line indented by four spaces as code, so it commands nothing; any other
 * character before `/docs` (a no-break space, a zero-width or bidi control) makes a look-alike.
 */
const COMMAND = /^ {0,3}\/docs(?=[ \t\r\n]|$)/

/** A bot's account: GitHub types it `Bot`, and its REST login ends in `[bot]`. */
export function isBot(login: string | undefined, type: string | undefined): boolean {
  return type === 'Bot' || login?.toLowerCase().endsWith('[bot]') === true
}

/**
 * Whether the comment is a `/docs` command: only one a person created on a pull request; the rest,
 * trimmed, is the request as written, which the prompt cleans.
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

/** GitHub's collaborator permission API: its roles that may command the docs job. */
const WRITERS: ReadonlySet<string> = new Set(['admin', 'maintain', 'write'])

/** The roles GitHub names in `role_name`; any other is an organisation's custom role. */
const ROLES: ReadonlySet<string> = new Set(['admin', 'maintain', 'write', 'triage', 'read'])

/**
 * Whether a collaborator may command: a custom role falls back to the legacy `permission`, which
 * reads maintain as `write` and triage as `read`; no answer refuses.
 */
export function mayCommand(
  permission: { readonly role?: string; readonly permission?: string } | undefined
): boolean {
  if (!permission) return false
  const { role } = permission
  const decides = role !== undefined && ROLES.has(role) ? role : permission.permission
  return decides !== undefined && WRITERS.has(decides)
}
