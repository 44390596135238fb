/**
 * The GitHub calls the action makes (`GitHubApi`, which tests fake) and GitHub's answers as the
 * action reads them: the types the rest of the action sees, and the zod schemas that parse each
 * answer at the edge, keeping only the fields the action uses. A field of another shape reads as
 * absent rather than failing the run.
 */
import { z } from 'zod'

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
  /** Reacts to a conversation comment; a reaction already there is kept once. */
  react(
    owner: string,
    repo: string,
    commentId: number,
    content: Reaction,
    signal: AbortSignal
  ): Promise<void>
  /** Sets a commit status; the latest status of a `context` is the one GitHub shows. */
  createStatus(
    owner: string,
    repo: string,
    sha: string,
    status: CommitStatus,
    signal: AbortSignal
  ): Promise<void>
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

const num = z.number().int().nonnegative().catch(0)
const str = z.string().nullish().catch(undefined)
const accountId = z.number().int().positive().nullish().catch(undefined)
const botLogin = (login: string) => /\[bot\]$/i.test(login)

/** An account in a REST answer (`user`, `creator`): App accounts' logins end in `[bot]`. */
const RestAccountSchema = z
  .looseObject({ login: z.string().min(1), id: accountId, type: str })
  .transform((u): Account => ({
    login: u.login,
    id: u.id ?? undefined,
    bot: u.type === 'Bot' || botLogin(u.login)
  }))

/**
 * An account in a GraphQL field typed `Actor` or `Bot`: an App's login comes without `[bot]`,
 * and `__typename` (`Bot`) is what says it is an App's.
 */
const ActorSchema = z
  .looseObject({ __typename: str, login: z.string().min(1), databaseId: accountId })
  .transform((a): Account => ({
    login: a.login,
    id: a.databaseId ?? undefined,
    bot: a.__typename ? a.__typename === 'Bot' : botLogin(a.login) || undefined
  }))

/** GraphQL's `viewer` (typed `User`): an App's installation token is `<slug>[bot]` there. */
const ViewerAccountSchema = z
  .looseObject({ login: z.string().min(1), databaseId: accountId })
  .transform((v): Account => ({
    login: v.login,
    id: v.databaseId ?? undefined,
    bot: botLogin(v.login)
  }))

export const FileSchema = z
  .looseObject({
    filename: z.string(),
    previous_filename: str,
    status: str,
    additions: num,
    deletions: num,
    patch: str
  })
  .transform((f): ChangedFile => ({
    path: f.filename,
    previousPath: f.previous_filename ?? undefined,
    status: f.status ?? 'modified',
    additions: f.additions,
    deletions: f.deletions,
    patch: f.patch ?? undefined
  }))

export const CommitSchema = z
  .looseObject({
    sha: z.string(),
    html_url: str,
    commit: z
      .looseObject({ message: str, author: z.looseObject({ name: str }).nullish() })
      .catch({}),
    author: z.looseObject({ login: str }).nullish().catch(undefined),
    files: z.array(z.unknown()).nullish().catch(undefined)
  })
  .transform((c): GitHubCommit & { url?: string; files?: unknown[] } => ({
    sha: c.sha,
    message: c.commit.message ?? '',
    author: c.author?.login ?? c.commit.author?.name ?? undefined,
    url: c.html_url ?? undefined,
    files: c.files ?? undefined
  }))

export const IssueCommentSchema = z
  .looseObject({
    id: z.number().int().positive(),
    body: str,
    html_url: str,
    user: RestAccountSchema.nullish().catch(undefined)
  })
  .transform((c): IssueComment => ({
    id: c.id,
    body: c.body ?? '',
    url: c.html_url ?? undefined,
    author: c.user ?? undefined
  }))

export const ViewerSchema = z.looseObject({ viewer: ViewerAccountSchema })

export const CommitPullSchema = z
  .looseObject({
    number: z.number().int().positive(),
    head: z.looseObject({ sha: str }).nullish().catch(undefined),
    user: z.looseObject({ login: str }).nullish().catch(undefined)
  })
  .transform((p): CommitPull => ({
    number: p.number,
    headSha: p.head?.sha ?? undefined,
    author: p.user?.login ?? undefined
  }))

export const ComparisonSchema = z.looseObject({
  html_url: str,
  total_commits: z.number().int().nonnegative().nullish().catch(undefined),
  commits: z.array(z.unknown()).catch([]),
  files: z.array(z.unknown()).nullish().catch(undefined)
})

/** A pull request as the action reads it before changing it. */
/**
 * A collaborator's permission: `role` is GitHub's `role_name` (admin, maintain, write, triage,
 * read, or an organisation's custom role); `permission` the legacy field, which reads maintain
 * as `write` and triage as `read`.
 */
export interface Permission {
  readonly role?: string
  readonly permission?: string
}

export const PermissionSchema = z
  .looseObject({ permission: str, role_name: str })
  .transform((p): Permission => ({
    role: p.role_name ?? undefined,
    permission: p.permission ?? undefined
  }))

/** The reactions the action leaves on a command: seen, then done or not done. */
export type Reaction = 'eyes' | 'rocket' | 'confused' | '-1'

export interface PullState {
  readonly number: number
  /** The head commit, where a check about the pull request's change belongs. */
  readonly headSha?: string
  readonly state: 'open' | 'closed'
  readonly merged: boolean
  /** Login of the account that opened it, which cannot be asked for a review. */
  readonly author?: string
  readonly url?: string
  readonly labels: readonly string[]
  /** Logins whose review it asks for. */
  readonly reviewers: readonly string[]
  /** Slugs of the teams whose review it asks for. */
  readonly teams: readonly string[]
}

export const PullStateSchema = z
  .looseObject({
    number: z.number().int().positive(),
    state: z.enum(['open', 'closed']),
    merged: z.boolean().nullish().catch(undefined),
    merged_at: str,
    html_url: str,
    user: z.looseObject({ login: str }).nullish().catch(undefined),
    head: z.looseObject({ sha: str }).nullish().catch(undefined),
    labels: z.array(z.unknown()).nullish().catch(undefined),
    requested_reviewers: z.array(z.unknown()).nullish().catch(undefined),
    requested_teams: z.array(z.unknown()).nullish().catch(undefined)
  })
  .transform((p): PullState => ({
    number: p.number,
    headSha: p.head?.sha ?? undefined,
    state: p.state,
    merged: p.merged === true || Boolean(p.merged_at),
    author: p.user?.login ?? undefined,
    url: p.html_url ?? undefined,
    labels: items(z.looseObject({ name: z.string() }), p.labels).map((l) => l.name),
    reviewers: items(z.looseObject({ login: z.string() }), p.requested_reviewers).map(
      (u) => u.login
    ),
    teams: items(z.looseObject({ slug: z.string() }), p.requested_teams).map((t) => t.slug)
  }))

/**
 * A list answer, or an error: a cut-off or garbled answer must not read as an empty list (with
 * `paths`, "no files" would skip the job).
 */
export function asList(data: unknown): unknown[] {
  if (!Array.isArray(data)) throw new Error('GitHub answered with something that is not a list')
  return data as unknown[]
}

/** Parses the items of a list, dropping any that are not of the expected shape. */
export function items<T>(schema: z.ZodType<T>, list: readonly unknown[] | null | undefined): T[] {
  return (list ?? []).flatMap((item) => {
    const parsed = schema.safeParse(item)
    return parsed.success ? [parsed.data] : []
  })
}

const PageInfoSchema = z
  .looseObject({ hasNextPage: z.boolean().catch(false), endCursor: str })
  .nullish()
  .catch(undefined)

export const HistorySchema = z
  .looseObject({
    viewer: ViewerAccountSchema,
    repository: z
      .looseObject({
        object: z
          .looseObject({
            history: z
              .looseObject({ nodes: z.array(z.unknown()).catch([]), pageInfo: PageInfoSchema })
              .nullish()
          })
          .nullish()
      })
      .nullish()
  })
  .transform((data): History => {
    const history = data.repository?.object?.history
    const page = history?.pageInfo
    return {
      viewer: data.viewer,
      commits: items(HistoryNodeSchema, history?.nodes ?? []),
      // A next page only with a cursor to ask for it by.
      next: (page?.hasNextPage && page.endCursor) || undefined
    }
  })

const HistoryNodeSchema = z
  .looseObject({
    oid: z.string(),
    status: z
      .looseObject({ contexts: z.array(z.unknown()).catch([]) })
      .nullish()
      .catch(undefined)
  })
  .transform((node) => ({
    sha: node.oid,
    statuses: items(StatusContextSchema, node.status?.contexts ?? [])
  }))

const StatusContextSchema = z
  .looseObject({
    context: z.string(),
    description: str,
    creator: ActorSchema.nullish().catch(undefined)
  })
  .transform((s): StatusContext => ({
    context: s.context,
    description: s.description ?? '',
    creator: s.creator ?? undefined
  }))
