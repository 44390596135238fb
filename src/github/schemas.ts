/**
 * The zod schemas that parse GitHub's answers at the edge into the types of `api.ts`, keeping only
 * the fields the action uses. A field of another shape reads as absent rather than failing the
 * run; a list that is not a list is an error.
 */
import { z } from 'zod'
import type {
  Account,
  ChangedFile,
  CommitPull,
  GitHubCommit,
  History,
  IssueComment,
  ListedCheckRun,
  ListedCommit,
  ListedStatus,
  Permission,
  PullState,
  StatusContext
} from './api.js'

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

/**
 * When a commit was committed (`commit.committer.date`): the committer's clock, undefined when
 * the answer gives none or a time that is none.
 */
export const CommittedAtSchema = z
  .looseObject({
    commit: z
      .looseObject({ committer: z.looseObject({ date: str }).nullish().catch(undefined) })
      .catch({})
  })
  .transform((c) => {
    const date = c.commit.committer?.date ?? undefined
    return date !== undefined && Number.isFinite(Date.parse(date)) ? date : undefined
  })

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

export const PermissionSchema = z
  .looseObject({ permission: str, role_name: str })
  .transform((p): Permission => ({
    role: p.role_name ?? undefined,
    permission: p.permission ?? undefined
  }))

export const PullStateSchema = z
  .looseObject({
    number: z.number().int().positive(),
    state: z.enum(['open', 'closed']),
    merged: z.boolean().nullish().catch(undefined),
    merged_at: str,
    html_url: str,
    user: z.looseObject({ login: str }).nullish().catch(undefined),
    head: z
      .looseObject({
        sha: str,
        ref: str,
        repo: z.looseObject({ full_name: str }).nullish().catch(undefined)
      })
      .nullish()
      .catch(undefined),
    base: z
      .looseObject({ repo: z.looseObject({ full_name: str }).nullish().catch(undefined) })
      .nullish()
      .catch(undefined),
    labels: z.array(z.unknown()).nullish().catch(undefined),
    requested_reviewers: z.array(z.unknown()).nullish().catch(undefined),
    requested_teams: z.array(z.unknown()).nullish().catch(undefined)
  })
  .transform((p): PullState => ({
    number: p.number,
    headSha: p.head?.sha ?? undefined,
    headRef: p.head?.ref ?? undefined,
    fork: forkOf(p.head?.repo, p.base?.repo?.full_name),
    state: p.state,
    merged: p.merged === true || Boolean(p.merged_at),
    author: p.user?.login ?? undefined,
    authorId: typeof p.user?.id === 'number' ? p.user.id : undefined,
    url: p.html_url ?? undefined,
    labels: items(z.looseObject({ name: z.string() }), p.labels).map((l) => l.name),
    reviewers: items(z.looseObject({ login: z.string() }), p.requested_reviewers).map(
      (u) => u.login
    ),
    teams: items(z.looseObject({ slug: z.string() }), p.requested_teams).map((t) => t.slug)
  }))

/**
 * The fork a pull request comes from, as the event's payload tells it (`trigger/event.ts`): the
 * head repository when it is another one than the base's; a head repository GitHub gives as
 * `null` is a deleted fork, which cannot be vouched for either.
 */
function forkOf(
  head: { full_name?: string | null } | null | undefined,
  base: string | null | undefined
): string | undefined {
  if (head === null) return 'a deleted fork'
  const name = head?.full_name
  return name && base && name !== base ? name : undefined
}

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
    state: str,
    creator: ActorSchema.nullish().catch(undefined)
  })
  .transform((s): StatusContext => ({
    context: s.context,
    description: s.description ?? '',
    ...(s.state ? { state: s.state.toLowerCase() } : {}),
    creator: s.creator ?? undefined
  }))

/**
 * A commit of a branch's list (`GET /repos/{owner}/{repo}/commits`): its sha, the account GitHub
 * matched its author to (`author`, null for an address no account has) and its commit date.
 */
export const ListedCommitSchema = z
  .looseObject({
    sha: z.string().regex(/^[0-9a-f]{40}$/i),
    author: RestAccountSchema.nullish().catch(undefined),
    commit: z
      .looseObject({
        committer: z.looseObject({ date: str }).nullish().catch(undefined),
        author: z.looseObject({ date: str }).nullish().catch(undefined)
      })
      .catch({})
  })
  .transform((c): ListedCommit => {
    const date = c.commit.committer?.date ?? c.commit.author?.date ?? undefined
    return {
      sha: c.sha.toLowerCase(),
      author: c.author ?? undefined,
      date: date !== undefined && Number.isFinite(Date.parse(date)) ? date : undefined
    }
  })

/** A repository's default branch (`GET /repos/{owner}/{repo}`). */
export const RepositorySchema = z
  .looseObject({ default_branch: str })
  .transform((r) => r.default_branch || undefined)

/** A combined status's `statuses`: the latest of each context. */
export const CombinedStatusSchema = z.looseObject({ statuses: z.array(z.unknown()) })

export const ListedStatusSchema = z
  .looseObject({ context: z.string(), state: z.string(), target_url: str })
  .transform((s): ListedStatus => ({
    context: s.context,
    state: s.state,
    targetUrl: s.target_url ?? undefined
  }))

/** `GET /repos/{owner}/{repo}/commits/{ref}/check-runs`: `{ total_count, check_runs }`. */
export const CheckRunsSchema = z.looseObject({ check_runs: z.array(z.unknown()) })

export const ListedCheckRunSchema = z
  .looseObject({
    name: z.string(),
    status: z.string(),
    conclusion: str,
    details_url: str,
    html_url: str
  })
  .transform((r): ListedCheckRun => ({
    name: r.name,
    status: r.status,
    conclusion: r.conclusion ?? undefined,
    detailsUrl: r.details_url ?? undefined,
    htmlUrl: r.html_url ?? undefined
  }))
