/** GitHub as the action sees it: its calls, their answers, and what a failure means to the user. */
import { errorMessage } from '../../base/errors.js'
import { forLog } from '../../base/sanitize.js'

export const MAX_COMMENT_PAGES = 30

type Call<A extends unknown[], R> = (
  owner: string,
  repo: string,
  ...rest: [...A, signal: AbortSignal]
) => Promise<R>

/** The GitHub calls the action makes (`client.ts` over Octokit; tests pass fakes). */
export interface GitHubApi {
  compare: Call<[base: string, head: string], Comparison>
  commit: Call<[sha: string], Comparison>
  /** `commit.committer.date`: the committer's own clock (GitHub keeps no time of a push). */
  committedAt: Call<[sha: string], string | undefined>
  /** Up to `maxFiles` files, 100 a page; `complete` says whether that was all. */
  pullFiles: Call<[number: number, maxFiles: number], PullFiles>
  commitPulls: Call<[sha: string], CommitPull[]>
  /** One page (100, oldest first) of an issue's comments, and the number of the last page. */
  listComments: Call<[number: number, page: number], { comments: IssueComment[]; lastPage: number }>
  /** The account the token acts as (`github-actions[bot]`, id 41898282, for the workflow token). */
  viewer(signal: AbortSignal): Promise<Account>
  history: Call<[sha: string, count: number, after: string | undefined], History>
  createComment: Call<[number: number, body: string], IssueComment>
  updateComment: Call<[id: number, body: string], IssueComment>
  getPull: Call<[number: number], PullState>
  closePull: Call<[number: number], PullState>
  /** GitHub answers 422 for all when one cannot be asked (no collaborator, or the author). */
  requestReviewers: Call<[number: number, reviewers: Reviewers], void>
  addLabels: Call<[number: number, labels: readonly string[]], void>
  /** Undefined for someone who is not a collaborator (GitHub answers 404). */
  permission: Call<[login: string], Permission | undefined>
  /** Undefined when the comment is gone (GitHub answers 404 for a deleted comment). */
  getComment: Call<[id: number], IssueComment | undefined>
  react: Call<[commentId: number, content: Reaction], void>
  /** Up to 20 commits of `branch` since `since` (ISO 8601), newest first, in one request. */
  branchCommits: Call<[branch: string, since: string], ListedCommit[]>
  defaultBranch: Call<[], string | undefined>
  /** The latest status of each context and the check runs on a commit, 100 of each at most. */
  commitChecks: Call<[sha: string], CommitChecks>
  createStatus: Call<[sha: string, status: CommitStatus], void>
}

type PullFiles = { files: ChangedFile[]; complete: boolean; pages: number }
type Reviewers = { readonly users: readonly string[]; readonly teams: readonly string[] }

/**
 * An account. An app is `github-actions[bot]` in REST and GraphQL's `viewer` but `github-actions`
 * in `Actor` fields, with one id; a user may hold the login without `[bot]`: the id tells them.
 */
export type Account = Readonly<{ login: string; id?: number; bot?: boolean }>

/** Whether two accounts are one: by id when both have one, else by login in either spelling. */
export function sameAccount(a: Account, b: Account): boolean {
  if (a.id !== undefined && b.id !== undefined) return a.id === b.id
  if (a.bot !== undefined && b.bot !== undefined && a.bot !== b.bot) return false
  const name = (login: string) => login.toLowerCase().replace(/\[bot\]$/, '')
  return name(a.login) === name(b.login)
}

/** The reactions the action leaves on a command: seen, then done or not done. */
export type Reaction = 'eyes' | 'rocket' | 'confused' | '-1'

/** A commit status to write: branch protection selects `context`; `description` ≤ 140 chars. */
export type CommitStatus = Readonly<{
  state: 'pending' | 'success' | 'failure' | 'error'
  context: string
  description: string
  targetUrl?: string
}>

/** A changed file; `patch` (the unified diff) is left out for binary and very large files. */
export type ChangedFile = Readonly<{
  path: string
  previousPath?: string
  status: string
  additions: number
  deletions: number
  patch?: string
}>

/** What a comparison or a commit says changed; a comparison lists at most 250 commits. */
export type Comparison = Readonly<{
  url?: string
  commits: readonly Readonly<{ sha: string; message: string; author?: string }>[]
  /** A comparison's whole count of commits, which `commits` may fall short of. */
  totalCommits?: number
  files: readonly ChangedFile[]
}>

export type CommitPull = Readonly<{ number: number; headSha?: string; author?: string }>

export type IssueComment = Readonly<{ id: number; body: string; url?: string; author?: Account }>

/** `role`: GitHub's `role_name`, maybe custom; legacy `permission` reads maintain as `write`. */
export type Permission = Readonly<{ role?: string; permission?: string }>

export type PullState = Readonly<{
  number: number
  headSha?: string
  headRef?: string
  /** `owner/name` of a fork it comes from, `a deleted fork` when GitHub names none. */
  fork?: string
  state: 'open' | 'closed'
  merged: boolean
  author?: string
  /** The author's id, which GitHub never reuses: how an agent account is told. */
  authorId?: number
  url?: string
  labels: readonly string[]
  reviewers: readonly string[]
  teams: readonly string[]
}>

/** A commit status as a history lists it: the latest of its context, `state` in lower case. */
export type StatusContext = Readonly<{
  context: string
  description: string
  state?: string
  creator?: Account
}>

/** The token's account, and a page of commits ending on the `sha` asked, newest first. */
export type History = Readonly<{
  viewer: Account
  commits: readonly { readonly sha: string; readonly statuses: readonly StatusContext[] }[]
  next?: string
}>

export type ListedCommit = Readonly<{ sha: string; author?: Account; date?: string }>

/** A commit status (`error`, `failure`, `pending`, `success`) as GitHub lists it. */
export type ListedStatus = Readonly<{ context: string; state: string; targetUrl?: string }>

export type ListedCheckRun = Readonly<{
  name: string
  status: string
  conclusion?: string
  detailsUrl?: string
  htmlUrl?: string
}>

export type CommitChecks = Readonly<{
  statuses: readonly ListedStatus[]
  runs: readonly ListedCheckRun[]
}>

/**
 * Why a request had no usable answer: `refused` (401, 403, 404: a retry fails too), `invalid`
 * (other 4xx), `server` (5xx), `no-answer` (it may have been done), `garbled` (or too large).
 */
export type GitHubFailureKind =
  'refused' | 'rate-limited' | 'invalid' | 'server' | 'no-answer' | 'garbled'

export class GitHubError extends Error {
  override name = 'GitHubError'
  readonly kind: GitHubFailureKind
  readonly status: number | undefined
  constructor(message: string, kind: GitHubFailureKind, status?: number) {
    super(message)
    this.kind = kind
    this.status = status
  }

  /** A write that failed this way may still have landed: look before writing it again. */
  get mayHaveLanded(): boolean {
    return this.kind === 'server' || this.kind === 'no-answer'
  }
}

/** The GitHub error behind what a call threw: a `RequestError`, an abort, network or parse. */
export function gitHubError(error: unknown): GitHubError {
  if (error instanceof GitHubError) return error
  const fields = error && typeof error === 'object' ? (error as Record<string, unknown>) : {}
  const name = typeof fields.name === 'string' ? fields.name : ''
  const status = typeof fields.status === 'number' ? fields.status : undefined
  const message = errorMessage(error)
  if (name === 'AbortError' || name === 'TimeoutError' || name === 'CancelledError') {
    return new GitHubError('GitHub did not answer in time', 'no-answer')
  }
  if (status === undefined || status === 0 || status < 400) {
    // A 2xx the schema could not parse arrives as a plain error.
    return name === 'HttpError' || name === 'TypeError'
      ? new GitHubError(`GitHub could not be reached: ${message}`, 'no-answer')
      : new GitHubError(`GitHub could not be read: ${message}`, 'garbled')
  }
  const response = fields.response as { headers?: Record<string, string | number> } | undefined
  const remaining = String(response?.headers?.['x-ratelimit-remaining'] ?? '')
  if (status === 429 || (status === 403 && (remaining === '0' || /rate limit/i.test(message)))) {
    return new GitHubError(`GitHub rate-limited the token (HTTP ${status})`, 'rate-limited', status)
  }
  if (status === 413)
    return new GitHubError(`GitHub's answer was not read: ${message}`, 'garbled', status)
  if (status === 401 || status === 403 || status === 404) {
    return new GitHubError(`GitHub refused (HTTP ${status})`, 'refused', status)
  }
  // Octokit reports a network failure as a 500 with no response.
  if (status >= 500) {
    return response === undefined
      ? new GitHubError(`GitHub could not be reached: ${message}`, 'no-answer')
      : new GitHubError(`GitHub answered HTTP ${status}`, 'server', status)
  }
  return new GitHubError(
    `GitHub refused the request (HTTP ${status}): ${message}`,
    'invalid',
    status
  )
}

/** Why a GitHub request failed, in words that say what to grant or check, and where. */
export function describeGitHubError(
  error: unknown,
  permission: string,
  token = 'github-token',
  repository?: string
): string {
  const failure = gitHubError(error)
  switch (failure.kind) {
    case 'refused':
      if (failure.status === 401) return `${token} was not accepted (HTTP 401)`
      // The workflow token's permissions come from `permissions:`; docs-token's do not.
      if (token === 'docs-token') {
        return (
          `GitHub refused docs-token (HTTP ${failure.status}): give docs-token access to ` +
          `${repository ?? 'the docs repository'} with \`${permission}\` (the repository access ` +
          "of a fine-grained token, or a GitHub App installed there; the workflow's " +
          '`permissions:` do not apply to it)'
        )
      }
      return (
        `GitHub refused (HTTP ${failure.status}): ${token} needs the \`${permission}\` ` +
        'permission (list it under `permissions:` in the workflow), or the repository is ' +
        'private to it, as a fork can be'
      )
    case 'rate-limited':
      return `GitHub rate-limited ${token} (HTTP ${failure.status})`
    case 'server':
      return `GitHub answered HTTP ${failure.status}`
    case 'no-answer':
    case 'invalid':
    case 'garbled':
      return forLog(failure.message, 200)
  }
}
