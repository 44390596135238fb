/**
 * The GitHub calls the action makes (`GitHubApi` in `api.ts`), through Octokit as
 * `@actions/github` builds it (`GITHUB_API_URL`, the runner's proxy, `token` auth, the
 * orchestration id in the user agent) with Octokit's retry and throttling plugins, over the one
 * HTTP layer (`http.ts`). `@actions/github` itself is not imported: it reads and parses the event
 * file the moment it is imported, so an unreadable `GITHUB_EVENT_PATH` would end the step before
 * it could report anything. Each call is bounded by the signal it is given; answers are parsed
 * through zod and capped in size, and a write is never repeated by a plugin. Failures are thrown
 * to the caller, whose GitHub policy (`policy.ts`) turns them into one warning.
 */
import { Octokit } from '@octokit/core'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import { gitHubApiUrl, proxiedFetch, readCapped, TooLargeError } from '../http.js'
import { redact } from '../sanitize.js'
import { gitHubError } from './policy.js'
import type { Account, ChangedFile, GitHubApi } from './api.js'
import {
  asList,
  CommitPullSchema,
  CommitSchema,
  ComparisonSchema,
  FileSchema,
  HistorySchema,
  IssueCommentSchema,
  items,
  PermissionSchema,
  PullStateSchema,
  ViewerSchema
} from './schemas.js'

/**
 * Who the token is: its id tells its account apart from one whose login differs only by `[bot]`.
 * Typed `User`, `viewer` spells an App's installation token `<slug>[bot]`, as REST does.
 */
export const VIEWER_QUERY = 'query { viewer { login databaseId } }'

/**
 * The token's account, and one page of a branch's history with the latest status of each context
 * on each commit and who wrote it. `creator` is an `Actor`, an interface without `databaseId`:
 * the id is asked of each kind of account that has one; a Bot's login comes without `[bot]`.
 */
export const HISTORY_QUERY = `query ($owner: String!, $repo: String!, $sha: String!, $first: Int!, $after: String) {
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

/** Every GraphQL query the action sends. */
export const GRAPHQL_QUERIES = { viewer: VIEWER_QUERY, history: HISTORY_QUERY } as const

/** Largest GitHub answer read; a larger one is refused rather than held in memory. */
export const MAX_GITHUB_ANSWER_BYTES = 16 * 1024 * 1024

/** A request that changes something: anything but a read, and GraphQL queries count as reads. */
function isWrite(method: string | undefined, url: string | undefined): boolean {
  const verb = (method ?? 'GET').toUpperCase()
  if (verb === 'GET' || verb === 'HEAD') return false
  return !(verb === 'POST' && /\/graphql$/.test(url ?? ''))
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
  return async (input, init) => {
    const response = await inner(input, init)
    let body: Buffer
    try {
      body = await readCapped(response, maxBytes)
    } catch (error: unknown) {
      if (!(error instanceof TooLargeError)) throw error
      return new Response(JSON.stringify({ message: error.message }), {
        status: TOO_LARGE,
        headers: { 'content-type': 'application/json' }
      })
    }
    const empty = [101, 204, 205, 304].includes(response.status)
    return new Response(empty ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers
    })
  }
}

/** The status an answer too large to read is given: `cappedFetch`'s own, never repeated. */
export const TOO_LARGE = 413

/** The user agent with the runner's orchestration id, as `@actions/github` sends it. */
function userAgentOf(base: string, env: NodeJS.ProcessEnv): string {
  const id = env.ACTIONS_ORCHESTRATION_ID?.trim()
  if (!id) return base
  const tag = `actions_orchestration_id/${id.replace(/[^a-z0-9_.-]/gi, '_')}`
  return base.includes(tag) ? base : `${base} ${tag}`
}

/**
 * Options of a request that are not text sent as it is: where it goes, the token (in the
 * headers) and how it is sent.
 */
const NOT_SENT_TEXT = new Set(['method', 'baseUrl', 'headers', 'request', 'mediaType'])

/** `value` with every string in it redacted, arrays and objects copied rather than changed. */
function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redact(value)
  if (Array.isArray(value)) return value.map(redactValue)
  if (
    value !== null &&
    typeof value === 'object' &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(item)]))
  }
  return value
}

/**
 * Redacts every text a request carries to GitHub: the path and its parameters, the query, and
 * every string in the body (a comment, a status's context, description and target URL, a pull
 * request's labels and reviewers, GraphQL variables). Installed once on the client, so no call,
 * present or future, can send a secret or a URL's credentials to GitHub, where they would be
 * published to everyone who can read the repository.
 */
function redactRequest(options: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(options)) {
    if (!NOT_SENT_TEXT.has(key)) options[key] = redactValue(value)
  }
}

const GitHubOctokit = Octokit.plugin(retry, throttling)
type ThrottleOptions = NonNullable<ConstructorParameters<typeof GitHubOctokit>[0]>['throttle']

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
  const baseUrl = options.baseUrl?.replace(/\/+$/, '') ?? gitHubApiUrl()
  const fetch = proxiedFetch(new URL(baseUrl)) as unknown as typeof globalThis.fetch
  const octokit = new GitHubOctokit({
    baseUrl,
    auth: `token ${options.token}`,
    userAgent: userAgentOf(options.userAgent, process.env),
    // The plugin's own list, and an answer too large to read: it would be as large again.
    retry: { retries: 2, doNotRetry: [400, 401, 403, 404, 410, TOO_LARGE, 422, 451] },
    throttle: {
      onRateLimit: onLimit,
      onSecondaryRateLimit: onLimit,
      write: UNSPACED,
      notifications: UNSPACED
    } as unknown as ThrottleOptions,
    request: { fetch: cappedFetch(fetch, MAX_GITHUB_ANSWER_BYTES) }
  })
  // The retry plugin repeats a request that failed with a 5xx or no answer: never a write, which
  // may have landed (see `createOnce` in policy.ts for what the action does instead).
  octokit.hook.before('request', (request) => {
    if (isWrite(request.method, request.url)) {
      request.request = { ...request.request, retries: 0 }
    }
  })
  octokit.hook.before('request', redactRequest)

  /** The token's account, once GitHub named it. */
  let account: Account | undefined
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
      // A token's account does not change within a step: asked once, whoever asks.
      if (account) return account
      const data = await octokit.graphql(VIEWER_QUERY, { request: { signal } })
      const viewer = ViewerSchema.parse(data).viewer
      account = viewer
      return viewer
    },
    async history(owner, repo, sha, count, after, signal) {
      const data = await octokit.graphql(HISTORY_QUERY, {
        owner,
        repo,
        sha,
        first: count,
        after: after ?? null,
        request: { signal }
      })
      const history = HistorySchema.parse(data)
      account = history.viewer
      return history
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
    async permission(owner, repo, login, signal) {
      try {
        const { data } = await octokit.request(
          'GET /repos/{owner}/{repo}/collaborators/{username}/permission',
          { owner, repo, username: login, request: { signal } }
        )
        return PermissionSchema.parse(data)
      } catch (error: unknown) {
        // GitHub answers 404 for an account that is not a collaborator.
        if (gitHubError(error).status === 404) return undefined
        throw error
      }
    },
    async react(owner, repo, commentId, content, signal) {
      await octokit.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', {
        owner,
        repo,
        comment_id: commentId,
        content,
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
