/**
 * The GitHub REST API, through `@actions/github` (Octokit, with the runner's proxy and
 * `GITHUB_API_URL`) and Octokit's retry and throttling plugins. Every call is best effort: it is
 * bounded by the signal it is given, and its failures are described for a warning, never thrown
 * past the caller.
 */
import { getOctokit } from '@actions/github'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import { z } from 'zod'
import { errorMessage } from '../errors.js'
import { forLog } from '../sanitize.js'

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
  readonly commits: readonly GitHubCommit[]
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
  /** Numbers of the pull requests GitHub associates with a commit. */
  commitPulls(owner: string, repo: string, sha: string, signal: AbortSignal): Promise<number[]>
  /** The first 100 conversation comments of an issue or pull request, oldest first. */
  listComments(
    owner: string,
    repo: string,
    number: number,
    signal: AbortSignal
  ): Promise<IssueComment[]>
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
}

/** A conversation comment on an issue or a pull request. */
export interface IssueComment {
  readonly id: number
  readonly body: string
  readonly url?: string
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
  .looseObject({ id: z.number().int(), body: str, html_url: str })
  .transform((c): IssueComment => ({ id: c.id, body: c.body ?? '', url: c.html_url ?? undefined }))

const PullNumberSchema = z.looseObject({ number: z.number().int().positive() })

const ComparisonSchema = z.looseObject({
  html_url: str,
  commits: z.array(z.unknown()).catch([]),
  files: z.array(z.unknown()).nullish().catch(undefined)
})

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
  readonly userAgent: string
  /** When the step must end; no retry or rate-limit wait may pass it. */
  readonly deadline: () => number
  readonly now?: () => number
}

/** Octokit for one step: its retries and rate-limit waits stay within `deadline`. */
export function createGitHubApi(options: GitHubOptions): GitHubApi {
  const now = options.now ?? Date.now
  // Wait for a rate limit only once, and only when the wait ends before the deadline.
  const onLimit = (
    retryAfterSeconds: number,
    _options: unknown,
    _octokit: unknown,
    count: number
  ) => count < 1 && now() + retryAfterSeconds * 1000 < options.deadline()
  const octokit = getOctokit(
    options.token,
    {
      userAgent: options.userAgent,
      retry: { retries: 2 },
      throttle: { onRateLimit: onLimit, onSecondaryRateLimit: onLimit }
    },
    retry,
    throttling
  )

  return {
    async compare(owner, repo, base, head, signal) {
      const { data } = await octokit.request('GET /repos/{owner}/{repo}/compare/{basehead}', {
        owner,
        repo,
        basehead: `${base}...${head}`,
        request: { signal }
      })
      const parsed = ComparisonSchema.parse(data)
      return {
        url: parsed.html_url ?? undefined,
        commits: items(CommitSchema, parsed.commits),
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
      for (; files.length < maxFiles; page++) {
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
      return items(PullNumberSchema, asList(data)).map((pull) => pull.number)
    },
    async listComments(owner, repo, number, signal) {
      const { data } = await octokit.request(
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { owner, repo, issue_number: number, per_page: 100, request: { signal } }
      )
      return items(IssueCommentSchema, asList(data))
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
    }
  }
}

/** Why a GitHub request failed, in words that say what to grant or check. */
export function describeGitHubError(error: unknown, permission: string): string {
  const fields = error && typeof error === 'object' ? (error as Record<string, unknown>) : {}
  const status = typeof fields.status === 'number' ? fields.status : undefined
  const name = typeof fields.name === 'string' ? fields.name : ''
  if (name === 'AbortError' || name === 'TimeoutError') return 'GitHub did not answer in time'
  const response = fields.response as { headers?: Record<string, string | number> } | undefined
  const limited =
    String(response?.headers?.['x-ratelimit-remaining'] ?? '') === '0' ||
    /rate limit/i.test(errorMessage(error))
  if ((status === 403 || status === 429) && limited) {
    return `GitHub rate-limited github-token (HTTP ${status})`
  }
  switch (status) {
    case 401:
      return 'github-token was not accepted (HTTP 401)'
    case 403:
    case 404:
      return (
        `GitHub refused (HTTP ${status}): github-token needs the \`${permission}\` ` +
        'permission (list it under `permissions:` in the workflow), or the repository is ' +
        'private to it, as a fork can be'
      )
    case 429:
      return 'GitHub rate-limited github-token (HTTP 429)'
    default:
      return status && status >= 500
        ? `GitHub answered HTTP ${status}`
        : `GitHub could not be read: ${forLog(errorMessage(error), 200)}`
  }
}
