/**
 * The GitHub calls the action makes (`GitHubApi`, which tests fake) and GitHub's answers as the
 * action reads them: the types the rest of the action sees. The schemas that parse each answer
 * into these types are in `schemas.ts`.
 */

/** Most comment pages read on one pull request (100 a page). */
export const MAX_COMMENT_PAGES = 30

/** The GitHub calls the action makes; tests pass fakes. */
export interface GitHubApi {
  compare(
    owner: string,
    repo: string,
    base: string,
    head: string,
    signal: AbortSignal
  ): Promise<Comparison>
  commit(owner: string, repo: string, sha: string, signal: AbortSignal): Promise<Comparison>
  /**
   * When a commit was committed (`commit.committer.date`): the committer's own clock, which
   * whoever commits sets as they like (GitHub keeps no time of a pull request commit's push).
   * Undefined when GitHub gives none.
   */
  committedAt(
    owner: string,
    repo: string,
    sha: string,
    signal: AbortSignal
  ): Promise<string | undefined>
  /**
   * Up to `maxFiles` files of a pull request, 100 a page; `complete` says whether that was all,
   * `pages` how many requests it took.
   */
  pullFiles(
    owner: string,
    repo: string,
    number: number,
    maxFiles: number,
    signal: AbortSignal
  ): Promise<{ files: ChangedFile[]; complete: boolean; pages: number }>
  /** The pull requests GitHub associates with a commit: their numbers and head commits. */
  commitPulls(owner: string, repo: string, sha: string, signal: AbortSignal): Promise<CommitPull[]>
  /**
   * One page (100 a page, oldest first) of the conversation comments of an issue or pull request,
   * and the number of the last page.
   */
  listComments(
    owner: string,
    repo: string,
    number: number,
    page: number,
    signal: AbortSignal
  ): Promise<{ comments: IssueComment[]; lastPage: number }>
  /** The account the token acts as (`github-actions[bot]`, id 41898282, for the workflow token). */
  viewer(signal: AbortSignal): Promise<Account>
  /**
   * In one GraphQL request: the token's account, and one page of `count` commits of the history
   * that ends on `sha` (newest first), each with the latest status of every context on it; the
   * page after the cursor `after`, or the first.
   */
  history(
    owner: string,
    repo: string,
    sha: string,
    count: number,
    after: string | undefined,
    signal: AbortSignal
  ): Promise<History>
  createComment(
    owner: string,
    repo: string,
    number: number,
    body: string,
    signal: AbortSignal
  ): Promise<IssueComment>
  updateComment(
    owner: string,
    repo: string,
    id: number,
    body: string,
    signal: AbortSignal
  ): Promise<IssueComment>
  /** A pull request's state, author, labels and the reviews it asks for. */
  getPull(owner: string, repo: string, number: number, signal: AbortSignal): Promise<PullState>
  /** Closes a pull request without merging it; closing a closed one changes nothing. */
  closePull(owner: string, repo: string, number: number, signal: AbortSignal): Promise<PullState>
  /**
   * Asks logins and teams (by slug) for a review. GitHub answers 422 for the whole request when
   * one of them cannot be asked (not a collaborator, or the pull request's author).
   */
  requestReviewers(
    owner: string,
    repo: string,
    number: number,
    reviewers: { readonly users: readonly string[]; readonly teams: readonly string[] },
    signal: AbortSignal
  ): Promise<void>
  /** Adds labels to an issue or pull request; labels it has already are kept once. */
  addLabels(
    owner: string,
    repo: string,
    number: number,
    labels: readonly string[],
    signal: AbortSignal
  ): Promise<void>
  /**
   * What a person may do in the repository, as the collaborator permission API says; undefined
   * for someone who is not a collaborator (GitHub answers 404).
   */
  permission(
    owner: string,
    repo: string,
    login: string,
    signal: AbortSignal
  ): Promise<Permission | undefined>
  /**
   * A conversation comment as GitHub has it now; undefined when it is gone (GitHub answers 404
   * for a deleted comment).
   */
  getComment(
    owner: string,
    repo: string,
    id: number,
    signal: AbortSignal
  ): Promise<IssueComment | undefined>
  /** Reacts to a conversation comment; a reaction already there is kept once. */
  react(
    owner: string,
    repo: string,
    commentId: number,
    content: Reaction,
    signal: AbortSignal
  ): Promise<void>
  /**
   * Up to 20 commits of `branch` (newest first) that GitHub lists since `since` (ISO 8601), with
   * the account GitHub says wrote each: one request.
   */
  branchCommits(
    owner: string,
    repo: string,
    branch: string,
    since: string,
    signal: AbortSignal
  ): Promise<ListedCommit[]>
  /** The repository's default branch, where GitHub names one. */
  defaultBranch(owner: string, repo: string, signal: AbortSignal): Promise<string | undefined>
  /**
   * The commit statuses (the latest of each context, as the combined status lists them) and the
   * check runs on a commit: two requests, 100 of each at most.
   */
  commitChecks(owner: string, repo: string, sha: string, signal: AbortSignal): Promise<CommitChecks>
  /** Sets a commit status; the latest status of a `context` is the one GitHub shows. */
  createStatus(
    owner: string,
    repo: string,
    sha: string,
    status: CommitStatus,
    signal: AbortSignal
  ): Promise<void>
}

/** A commit of a branch as GitHub lists it. */
export interface ListedCommit {
  readonly sha: string
  /** The account GitHub matched the commit's author to; absent for an address no account has. */
  readonly author?: Account
  /** When it was committed (`commit.committer.date`, else the author's date). */
  readonly date?: string
}

/** A commit status on a commit (`error`, `failure`, `pending`, `success`), as GitHub lists it. */
export interface ListedStatus {
  readonly context: string
  readonly state: string
  readonly targetUrl?: string
}

/**
 * A check run on a commit: `status` (`queued`, `in_progress`, `completed`, …) and, once completed,
 * its `conclusion`.
 */
export interface ListedCheckRun {
  readonly name: string
  readonly status: string
  readonly conclusion?: string
  /** Where its app shows the details (`details_url`). */
  readonly detailsUrl?: string
  /** The check run's own page on GitHub (`html_url`). */
  readonly htmlUrl?: string
}

/** What GitHub says of the checks on one commit. */
export interface CommitChecks {
  readonly statuses: readonly ListedStatus[]
  readonly runs: readonly ListedCheckRun[]
}

/** A changed file as GitHub lists it. */
export interface ChangedFile {
  readonly path: string
  readonly previousPath?: string
  readonly status: string
  readonly additions: number
  readonly deletions: number
  /** The unified diff; GitHub leaves it out for binary and very large files. */
  readonly patch?: string
}

export interface GitHubCommit {
  readonly sha: string
  readonly message: string
  readonly author?: string
}

/** What a comparison or a commit says changed. */
export interface Comparison {
  readonly url?: string
  /** Oldest first; a comparison lists at most 250. */
  readonly commits: readonly GitHubCommit[]
  /** A comparison's whole count of commits (`total_commits`), which `commits` may fall short of. */
  readonly totalCommits?: number
  readonly files: readonly ChangedFile[]
}

/** A commit status as the action writes it. */
export interface CommitStatus {
  readonly state: 'pending' | 'success' | 'failure' | 'error'
  /** The name branch protection selects the check by. */
  readonly context: string
  /** At most 140 characters. */
  readonly description: string
  readonly targetUrl?: string
}

/** A commit status as a history lists it: the latest of its context on that commit. */
export interface StatusContext {
  readonly context: string
  readonly description: string
  /** GraphQL's `StatusState`, in lower case: `pending`, `success`, `failure`, `error`, `expected`. */
  readonly state?: string
  /** The account that wrote it. */
  readonly creator?: Account
}

/** The token's account, and one page of commits newest first with their statuses. */
export interface History {
  readonly viewer: Account
  readonly commits: readonly { readonly sha: string; readonly statuses: readonly StatusContext[] }[]
  /** The cursor of the next page, when there is one. */
  readonly next?: string
}

/**
 * An account as GitHub names it. A GitHub App's account is spelled two ways: REST answers and
 * GraphQL's `viewer` say `github-actions[bot]`, GraphQL fields typed `Actor` or `Bot` (a status's
 * `creator`, a comment's `author`) say `github-actions` with `__typename: "Bot"`; its id is the
 * same in both (`id` in REST, `databaseId` in GraphQL). A user may hold the login an App's
 * account has without `[bot]`, so the id is what tells them apart.
 */
export interface Account {
  readonly login: string
  /** `id` in REST, `databaseId` in GraphQL; absent when GitHub gave none. */
  readonly id?: number
  /** Whether it is a GitHub App's account; absent when the answer does not say. */
  readonly bot?: boolean
}

/**
 * Whether two accounts are one: by id when both have one; otherwise by login in either spelling
 * (without case and a trailing `[bot]`), unless one is known to be an App's and the other not.
 */
export function sameAccount(a: Account, b: Account): boolean {
  if (a.id !== undefined && b.id !== undefined) return a.id === b.id
  if (a.bot !== undefined && b.bot !== undefined && a.bot !== b.bot) return false
  return loginName(a.login) === loginName(b.login)
}

/** A login without case and without the `[bot]` REST adds to an App's account. */
function loginName(login: string): string {
  return login.toLowerCase().replace(/\[bot\]$/, '')
}

/** A pull request a commit belongs to. */
export interface CommitPull {
  readonly number: number
  /** The commit its head branch ends on. */
  readonly headSha?: string
  /** Login of the account that opened it. */
  readonly author?: string
}

/** A conversation comment on an issue or a pull request. */
export interface IssueComment {
  readonly id: number
  readonly body: string
  readonly url?: string
  /** The account that wrote it. */
  readonly author?: Account
}

/**
 * A collaborator's permission: `role` is GitHub's `role_name` (admin, maintain, write, triage,
 * read, or an organisation's custom role); `permission` the legacy field, which reads maintain
 * as `write` and triage as `read`.
 */
export interface Permission {
  readonly role?: string
  readonly permission?: string
}

/** The reactions the action leaves on a command: seen, then done or not done. */
export type Reaction = 'eyes' | 'rocket' | 'confused' | '-1'

/** A pull request as the action reads it before changing it. */
export interface PullState {
  readonly number: number
  /** The head commit, where a check about the pull request's change belongs. */
  readonly headSha?: string
  /** The head branch's name, as GitHub gives it. */
  readonly headRef?: string
  /**
   * `owner/name` of the head branch's repository when it is another one than the base's (a
   * fork), or `a deleted fork` when GitHub gives none; undefined for a branch of the repository.
   */
  readonly fork?: string
  readonly state: 'open' | 'closed'
  readonly merged: boolean
  /** Login of the account that opened it, which cannot be asked for a review. */
  readonly author?: string
  /** That account's id, which GitHub never reuses: how an agent account is told by GitHub. */
  readonly authorId?: number
  readonly url?: string
  readonly labels: readonly string[]
  /** Logins whose review it asks for. */
  readonly reviewers: readonly string[]
  /** Slugs of the teams whose review it asks for. */
  readonly teams: readonly string[]
}
