/**
 * The GitHub calls the action makes, through Octokit as `@actions/github` builds it (`rest.ts`:
 * the runner's proxy and `GITHUB_API_URL`) with Octokit's retry and throttling plugins. Each call
 * is bounded by the signal it is given; answers are parsed through zod and capped in size, and a
 * write is never repeated by a plugin. Failures are thrown to the caller, whose GitHub policy
 * (`policy.ts`) turns them into one warning.
 */
import { getOctokit, proxyFetch } from './rest.js'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import { z } from 'zod'

/** Largest GitHub answer read; a larger one is refused rather than held in memory. */
export const MAX_GITHUB_ANSWER_BYTES = 16 * 1024 * 1024

/** Most pages of comments read on one pull request (100 a page). */
export const MAX_COMMENT_PAGES = 30

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
  /** The login of the account the token acts as (`github-actions[bot]` for the workflow token). */
  viewer(signal: AbortSignal): Promise<string>
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
  /** Sets a commit status; the latest status of a `context` is the one GitHub shows. */
  createStatus(
    owner: string,
    repo: string,
    sha: string,
    status: CommitStatus,
    signal: AbortSignal
  ): Promise<void>
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

/** A pull request a commit belongs to. */
export interface CommitPull {
  readonly number: number
  /** The commit its head branch ends on. */
  readonly headSha?: string
}

/** A conversation comment on an issue or a pull request. */
export interface IssueComment {
  readonly id: number
  readonly body: string
  readonly url?: string
  /** Login of the account that wrote it. */
  readonly author?: string
}

const num = z.number().int().nonnegative().catch(0)
const str = z.string().nullish().catch(undefined)

const FileSchema = z
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

const CommitSchema = z
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

const IssueCommentSchema = z
  .looseObject({
    id: z.number().int().positive(),
    body: str,
    html_url: str,
    user: z.looseObject({ login: str }).nullish().catch(undefined)
  })
  .transform((c): IssueComment => ({
    id: c.id,
    body: c.body ?? '',
    url: c.html_url ?? undefined,
    author: c.user?.login ?? undefined
  }))

const ViewerSchema = z.looseObject({ viewer: z.looseObject({ login: z.string().min(1) }) })

const CommitPullSchema = z
  .looseObject({
    number: z.number().int().positive(),
    head: z.looseObject({ sha: str }).nullish().catch(undefined)
  })
  .transform((p): CommitPull => ({ number: p.number, headSha: p.head?.sha ?? undefined }))

const ComparisonSchema = z.looseObject({
  html_url: str,
  total_commits: z.number().int().nonnegative().nullish().catch(undefined),
  commits: z.array(z.unknown()).catch([]),
  files: z.array(z.unknown()).nullish().catch(undefined)
})

/** A request that changes something: anything but a read, and GraphQL queries count as reads. */
function isWrite(method: string | undefined, url: string | undefined): boolean {
  const verb = (method ?? 'GET').toUpperCase()
  if (verb === 'GET' || verb === 'HEAD') return false
  return !(verb === 'POST' && /\/graphql$/.test(url ?? ''))
}

/**
 * A list answer, or an error: a cut-off or garbled answer must not read as an empty list (with
 * `paths`, "no files" would skip the job).
 */
function asList(data: unknown): unknown[] {
  if (!Array.isArray(data)) throw new Error('GitHub answered with something that is not a list')
  return data as unknown[]
}

/** Parses the items of a list, dropping any that are not of the expected shape. */
function items<T>(schema: z.ZodType<T>, list: readonly unknown[] | null | undefined): T[] {
  return (list ?? []).flatMap((item) => {
    const parsed = schema.safeParse(item)
    return parsed.success ? [parsed.data] : []
  })
}

export interface GitHubOptions {
  readonly token: string
  /** `GITHUB_API_URL`; GitHub.com's API when left out. */
  readonly baseUrl?: string
  readonly userAgent: string
  /** When the step must end; no retry or rate-limit wait may pass it. */
  readonly deadline: () => number
  readonly now?: () => number
}

/**
 * `fetch` that reads no more than `maxBytes` of an answer: a larger one becomes a 413 answer of
 * its own, which is not retried.
 */
export function cappedFetch(inner: typeof fetch, maxBytes: number): typeof fetch {
  const tooLarge = () =>
    new Response(JSON.stringify({ message: `the answer is larger than ${maxBytes} bytes` }), {
      status: TOO_LARGE,
      headers: { 'content-type': 'application/json' }
    })
  return async (input, init) => {
    const response = await inner(input, init)
    if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
      await response.body?.cancel()
      return tooLarge()
    }
    const chunks: Uint8Array[] = []
    let total = 0
    if (response.body) {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        total += chunk.byteLength
        if (total > maxBytes) {
          await response.body.cancel().catch(() => undefined)
          return tooLarge()
        }
        chunks.push(chunk)
      }
    }
    const empty = [101, 204, 205, 304].includes(response.status)
    return new Response(empty ? null : Buffer.concat(chunks), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers
    })
  }
}

/** The status an answer too large to read is given: `cappedFetch`'s own, never repeated. */
export const TOO_LARGE = 413

type ThrottleOptions = NonNullable<Parameters<typeof getOctokit>[1]>['throttle']

/**
 * In place of the throttling plugin's queues that space writes 1 s apart (3 s for those that
 * notify): a step makes a handful of writes, each within a budget of a few seconds, and spacing
 * them would spend that budget waiting. A rate limit GitHub does answer is still reported.
 */
const UNSPACED = {
  key: () => ({
    schedule: <T>(_options: unknown, task: (...args: unknown[]) => T, ...args: unknown[]) =>
      Promise.resolve(task(...args))
  })
}

/** Octokit for one step: its retries and rate-limit waits stay within `deadline`. */
export function createGitHubApi(options: GitHubOptions): GitHubApi {
  const now = options.now ?? Date.now
  // Wait for a rate limit only once, only when the wait ends before the deadline, and never to
  // send a write again: a refused POST is reported, not repeated.
  const onLimit = (
    retryAfterSeconds: number,
    request: { method?: string; url?: string },
    _octokit: unknown,
    count: number
  ) =>
    count < 1 &&
    !isWrite(request.method, request.url) &&
    now() + retryAfterSeconds * 1000 < options.deadline()
  const baseUrl = (
    options.baseUrl ??
    process.env.GITHUB_API_URL ??
    'https://api.github.com'
  ).replace(/\/+$/, '')
  const octokit = getOctokit(
    options.token,
    {
      baseUrl,
      userAgent: options.userAgent,
      // The plugin's own list, and an answer too large to read: it would be as large again.
      retry: { retries: 2, doNotRetry: [400, 401, 403, 404, 410, TOO_LARGE, 422, 451] },
      throttle: {
        onRateLimit: onLimit,
        onSecondaryRateLimit: onLimit,
        write: UNSPACED,
        notifications: UNSPACED
      } as unknown as ThrottleOptions,
      request: { fetch: cappedFetch(proxyFetch(baseUrl), MAX_GITHUB_ANSWER_BYTES) }
    },
    retry,
    throttling
  )
  // The retry plugin repeats a request that failed with a 5xx or no answer: never a write, which
  // may have landed (see `createOnce` in policy.ts for what the action does instead).
  octokit.hook.before('request', (request) => {
    if (isWrite(request.method, request.url)) {
      request.request = { ...request.request, retries: 0 }
    }
  })

  return {
    async compare(owner, repo, base, head, signal) {
      const { data } = await octokit.request('GET /repos/{owner}/{repo}/compare/{basehead}', {
        owner,
        repo,
        basehead: `${base}...${head}`,
        request: { signal }
      })
      const parsed = ComparisonSchema.parse(data)
      const commits = items(CommitSchema, parsed.commits)
      return {
        url: parsed.html_url ?? undefined,
        commits,
        // Never fewer than were listed, whatever the count says; absent when GitHub gave none.
        totalCommits:
          parsed.total_commits == null ? undefined : Math.max(parsed.total_commits, commits.length),
        files: items(FileSchema, parsed.files)
      }
    },
    async commit(owner, repo, sha, signal) {
      const { data } = await octokit.request('GET /repos/{owner}/{repo}/commits/{ref}', {
        owner,
        repo,
        ref: sha,
        request: { signal }
      })
      const commit = CommitSchema.parse(data)
      return {
        url: commit.url,
        commits: [{ sha: commit.sha, message: commit.message, author: commit.author }],
        files: items(FileSchema, commit.files)
      }
    },
    async pullFiles(owner, repo, number, maxFiles, signal) {
      const files: ChangedFile[] = []
      let page = 1
      // However the pages are cut, no more requests than full pages of 100 would take.
      const maxPages = Math.ceil(maxFiles / 100)
      for (; files.length < maxFiles && page <= maxPages; page++) {
        const { data, headers } = await octokit.request(
          'GET /repos/{owner}/{repo}/pulls/{pull_number}/files',
          {
            owner,
            repo,
            pull_number: number,
            per_page: 100,
            page,
            request: { signal }
          }
        )
        const list = asList(data)
        files.push(...items(FileSchema, list))
        // The last page has no `next` link: a pull request of exactly 100 files takes one request.
        if (list.length < 100 || !/rel="next"/.test(headers.link ?? '')) {
          return { files, complete: true, pages: page }
        }
      }
      return { files: files.slice(0, maxFiles), complete: false, pages: page - 1 }
    },
    async commitPulls(owner, repo, sha, signal) {
      const { data } = await octokit.request(
        'GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls',
        {
          owner,
          repo,
          commit_sha: sha,
          per_page: 100,
          request: { signal }
        }
      )
      return items(CommitPullSchema, asList(data))
    },
    async listComments(owner, repo, number, page, signal) {
      const { data, headers } = await octokit.request(
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { owner, repo, issue_number: number, per_page: 100, page, request: { signal } }
      )
      const last = /[?&]page=(\d+)[^>]*>;\s*rel="last"/.exec(headers.link ?? '')
      return {
        comments: items(IssueCommentSchema, asList(data)),
        lastPage: last ? Number(last[1]) : page
      }
    },
    async viewer(signal) {
      const data = await octokit.graphql('query { viewer { login } }', { request: { signal } })
      return ViewerSchema.parse(data).viewer.login
    },
    async createComment(owner, repo, number, body, signal) {
      const { data } = await octokit.request(
        'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { owner, repo, issue_number: number, body, request: { signal } }
      )
      return IssueCommentSchema.parse(data)
    },
    async updateComment(owner, repo, id, body, signal) {
      const { data } = await octokit.request(
        'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
        { owner, repo, comment_id: id, body, request: { signal } }
      )
      return IssueCommentSchema.parse(data)
    },
    async getPull(owner, repo, number, signal) {
      const { data } = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
        owner,
        repo,
        pull_number: number,
        request: { signal }
      })
      return PullStateSchema.parse(data)
    },
    async closePull(owner, repo, number, signal) {
      const { data } = await octokit.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', {
        owner,
        repo,
        pull_number: number,
        state: 'closed',
        request: { signal }
      })
      return PullStateSchema.parse(data)
    },
    async requestReviewers(owner, repo, number, reviewers, signal) {
      await octokit.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', {
        owner,
        repo,
        pull_number: number,
        reviewers: [...reviewers.users],
        team_reviewers: [...reviewers.teams],
        request: { signal }
      })
    },
    async addLabels(owner, repo, number, labels, signal) {
      await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', {
        owner,
        repo,
        issue_number: number,
        labels: [...labels],
        request: { signal }
      })
    },
    async createStatus(owner, repo, sha, status, signal) {
      await octokit.request('POST /repos/{owner}/{repo}/statuses/{sha}', {
        owner,
        repo,
        sha,
        state: status.state,
        context: status.context,
        description: status.description,
        ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
        request: { signal }
      })
    }
  }
}

/** A pull request as the action reads it before changing it. */
export interface PullState {
  readonly number: number
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

const PullStateSchema = z
  .looseObject({
    number: z.number().int().positive(),
    state: z.enum(['open', 'closed']),
    merged: z.boolean().nullish().catch(undefined),
    merged_at: str,
    html_url: str,
    user: z.looseObject({ login: str }).nullish().catch(undefined),
    labels: z.array(z.unknown()).nullish().catch(undefined),
    requested_reviewers: z.array(z.unknown()).nullish().catch(undefined),
    requested_teams: z.array(z.unknown()).nullish().catch(undefined)
  })
  .transform((p): PullState => ({
    number: p.number,
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
