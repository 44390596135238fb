/**
 * GitHub's answers as the action reads them, into the types of `api.ts`, keeping only the fields
 * it uses, and the GraphQL queries it sends. A field of another shape reads as absent rather than
 * failing the run; a list that is not a list is an error, since "no files" would skip the job.
 */
import { z } from 'zod'
import type {
  Account,
  ChangedFile,
  CommitPull,
  History,
  IssueComment,
  ListedCheckRun,
  ListedCommit,
  ListedStatus,
  Permission,
  PullState,
  StatusContext
} from './api.js'

const text = z.string().optional().catch(undefined)
const count = z.number().int().nonnegative().catch(0)
const accountId = z.number().int().positive().optional().catch(undefined)
const list = z.array(z.unknown()).optional().catch(undefined)
/** `schema`, or undefined for anything else (null included). */
const opt = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined)
const isBot = (login: string) => /\[bot\]$/i.test(login)
const when = (date: string | undefined) =>
  Number.isFinite(Date.parse(date ?? '')) ? date : undefined

/** The items of a list of the expected shape; others are dropped. */
export function items<T>(schema: z.ZodType<T>, values: readonly unknown[] | undefined): T[] {
  return (values ?? []).flatMap((item) => {
    const parsed = schema.safeParse(item)
    return parsed.success ? [parsed.data] : []
  })
}

/** The text `key` of each item of a list that has one. */
function each(key: string, values: readonly unknown[] | undefined): string[] {
  return items(z.looseObject({ [key]: z.string() }), values).map((item) => String(item[key]))
}

/** A list answer, or an error: a cut-off or garbled answer must not read as an empty list. */
export function asList(data: unknown): unknown[] {
  if (!Array.isArray(data)) throw new Error('GitHub answered with something that is not a list')
  return data as unknown[]
}

/** An account in a REST answer (`user`, `author`): an App's login ends in `[bot]`. */
const RestAccount = z
  .looseObject({ login: z.string().min(1), id: accountId, type: text })
  .transform((u): Account => ({
    login: u.login,
    id: u.id,
    bot: u.type === 'Bot' || isBot(u.login)
  }))

/** GraphQL's `viewer` (typed `User`): an App's installation token is `<slug>[bot]` there too. */
const Viewer = z
  .looseObject({ login: z.string().min(1), databaseId: accountId })
  .transform((v): Account => ({ login: v.login, id: v.databaseId, bot: isBot(v.login) }))

/** A GraphQL `Actor`: an App's login comes without `[bot]`; `__typename` says it is a `Bot`. */
const Actor = z
  .looseObject({ __typename: text, login: z.string().min(1), databaseId: accountId })
  .transform((a): Account => ({
    login: a.login,
    id: a.databaseId,
    bot: a.__typename ? a.__typename === 'Bot' : isBot(a.login) || undefined
  }))

export const FileSchema = z
  .looseObject({
    filename: z.string(),
    previous_filename: text,
    status: text,
    additions: count,
    deletions: count,
    patch: text
  })
  .transform((f): ChangedFile => ({
    path: f.filename,
    previousPath: f.previous_filename,
    status: f.status ?? 'modified',
    additions: f.additions,
    deletions: f.deletions,
    patch: f.patch
  }))

export const CommitSchema = z
  .looseObject({
    sha: z.string(),
    html_url: text,
    commit: z
      .looseObject({ message: text, author: z.looseObject({ name: text }).nullish() })
      .catch({}),
    author: opt(z.looseObject({ login: text })),
    files: list
  })
  .transform((c) => ({
    commit: {
      sha: c.sha,
      message: c.commit.message ?? '',
      author: c.author?.login ?? c.commit.author?.name
    },
    url: c.html_url,
    files: items(FileSchema, c.files)
  }))

export const IssueCommentSchema = z
  .looseObject({
    id: z.number().int().positive(),
    body: text,
    html_url: text,
    user: opt(RestAccount)
  })
  .transform((c): IssueComment => ({
    id: c.id,
    body: c.body ?? '',
    url: c.html_url,
    author: c.user
  }))

export const CommitPullSchema = z
  .looseObject({
    number: z.number().int().positive(),
    head: opt(z.looseObject({ sha: text })),
    user: opt(z.looseObject({ login: text }))
  })
  .transform((p): CommitPull => ({ number: p.number, headSha: p.head?.sha, author: p.user?.login }))

const Repo = z.looseObject({ full_name: text }).nullish().catch(undefined)

export const PullStateSchema = z
  .looseObject({
    number: z.number().int().positive(),
    state: z.enum(['open', 'closed']),
    merged: opt(z.boolean()),
    merged_at: text,
    html_url: text,
    user: opt(z.looseObject({ login: text, id: accountId })),
    head: opt(z.looseObject({ sha: text, ref: text, repo: Repo })),
    base: opt(z.looseObject({ repo: Repo })),
    labels: list,
    requested_reviewers: list,
    requested_teams: list
  })
  .transform((p): PullState => ({
    number: p.number,
    headSha: p.head?.sha,
    headRef: p.head?.ref,
    fork: forkOf(p.head?.repo, p.base?.repo?.full_name),
    state: p.state,
    merged: p.merged === true || Boolean(p.merged_at),
    author: p.user?.login,
    authorId: p.user?.id,
    url: p.html_url,
    labels: each('name', p.labels),
    reviewers: each('login', p.requested_reviewers),
    teams: each('slug', p.requested_teams)
  }))

/**
 * The fork a pull request comes from, as the event tells it: the head repository when it is
 * not the base's; one GitHub gives as `null` is a deleted fork, which cannot be vouched for.
 */
function forkOf(head: { full_name?: string } | null | undefined, base: string | undefined) {
  if (head === null) return 'a deleted fork'
  const name = head?.full_name
  return name && base && name !== base ? name : undefined
}

const StatusContextSchema = z
  .looseObject({ context: z.string(), description: text, state: text, creator: opt(Actor) })
  .transform((s): StatusContext => ({
    context: s.context,
    description: s.description ?? '',
    ...(s.state ? { state: s.state.toLowerCase() } : {}),
    creator: s.creator
  }))

const HistoryNodeSchema = z
  .looseObject({ oid: z.string(), status: opt(z.looseObject({ contexts: list })) })
  .transform((node) => ({
    sha: node.oid,
    statuses: items(StatusContextSchema, node.status?.contexts)
  }))

const HistoryPageSchema = z.looseObject({
  nodes: list,
  pageInfo: opt(z.looseObject({ hasNextPage: z.boolean().catch(false), endCursor: text }))
})

export const HistorySchema = z
  .looseObject({
    viewer: Viewer,
    repository: z
      .looseObject({ object: z.looseObject({ history: HistoryPageSchema.nullish() }).nullish() })
      .nullish()
  })
  .transform(({ viewer, repository }): History => {
    const history = repository?.object?.history
    const page = history?.pageInfo
    const next = (page?.hasNextPage && page.endCursor) || undefined
    return { viewer, commits: items(HistoryNodeSchema, history?.nodes), next }
  })

const Dated = opt(z.looseObject({ date: text }))

export const ListedCommitSchema = z
  .looseObject({
    sha: z.string().regex(/^[0-9a-f]{40}$/i),
    author: opt(RestAccount),
    commit: z.looseObject({ committer: Dated, author: Dated }).catch({})
  })
  .transform((c): ListedCommit => ({
    sha: c.sha.toLowerCase(),
    author: c.author,
    date: when(c.commit.committer?.date ?? c.commit.author?.date)
  }))

export const ListedStatusSchema = z
  .looseObject({ context: z.string(), state: z.string(), target_url: text })
  .transform((s): ListedStatus => ({ context: s.context, state: s.state, targetUrl: s.target_url }))

export const ListedCheckRunSchema = z
  .looseObject({
    name: z.string(),
    status: z.string(),
    conclusion: text,
    details_url: text,
    html_url: text
  })
  .transform((r): ListedCheckRun => ({
    name: r.name,
    status: r.status,
    conclusion: r.conclusion,
    detailsUrl: r.details_url,
    htmlUrl: r.html_url
  }))

export const ViewerSchema = z.looseObject({ viewer: Viewer })
export const CheckRunsSchema = z.looseObject({ check_runs: z.array(z.unknown()) })
export const CombinedStatusSchema = z.looseObject({ statuses: z.array(z.unknown()) })
export const RepositorySchema = z
  .looseObject({ default_branch: text })
  .transform((r) => r.default_branch || undefined)
export const PermissionSchema = z
  .looseObject({ permission: text, role_name: text })
  .transform((p): Permission => ({ role: p.role_name, permission: p.permission }))
export const ComparisonSchema = z.looseObject({
  html_url: text,
  total_commits: opt(z.number().int().nonnegative()),
  commits: list,
  files: list
})
export const CommittedAtSchema = z
  .looseObject({ commit: z.looseObject({ committer: Dated }).catch({}) })
  .transform((c) => when(c.commit.committer?.date))

/**
 * Every GraphQL query the action sends. `viewer` is typed `User`: an App's token is `<slug>[bot]`
 * there, as in REST. A status's `creator` is an `Actor`, which has no `databaseId`: the id is asked
 * of each kind of account that has one.
 */
export const GRAPHQL_QUERIES = {
  viewer: 'query { viewer { login databaseId } }',
  history: `query ($owner: String!, $repo: String!, $sha: String!, $first: Int!, $after: String) {
  viewer { login databaseId }
  repository(owner: $owner, name: $repo) {
    object(expression: $sha) {
      ... on Commit {
        history(first: $first, after: $after) {
          pageInfo { hasNextPage endCursor }
          nodes {
            oid
            status {
              contexts {
                context
                description
                state
                creator {
                  __typename
                  login
                  ... on Bot { databaseId }
                  ... on User { databaseId }
                  ... on Mannequin { databaseId }
                  ... on Organization { databaseId }
                }
              }
            }
          }
        }
      }
    }
  }
}`
} as const
