/**
 * The GitHub calls (`GitHubApi`) over Octokit, built as `@actions/github` builds it (proxy, auth,
 * user agent) without importing it: it parses the event file on import, so an unreadable event
 * would end the step before it could report. Its rules are installed once, so no call can miss
 * them: text sent is redacted, answers are capped, a write is never repeated, and no retry or
 * rate-limit wait passes the step's deadline.
 */
import { Octokit } from '@octokit/core'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import type { z } from 'zod'
import { gitHubApiUrl, proxiedFetch, readCapped, TooLargeError } from '../../base/http.js'
import { redact } from '../../base/secrets/redact.js'
import { gitHubError, type Account, type ChangedFile, type GitHubApi } from './api.js'
import * as answer from './schemas.js'

/** Largest answer read; a larger one is refused as a 413 of its own, never retried. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024
const TOO_LARGE = 413

export interface GitHubOptions {
  readonly token: string
  /** `GITHUB_API_URL`; GitHub.com's API when left out. */
  readonly baseUrl?: string
  readonly userAgent: string
  /** When the step must end; no retry or rate-limit wait may pass it. */
  readonly deadline: () => number
  readonly now?: () => number
}

type Sent = { method?: string; url?: string }

/** A request that changes something: GraphQL queries count as reads. */
function isWrite(method = 'GET', url = ''): boolean {
  const verb = method.toUpperCase()
  return verb !== 'GET' && verb !== 'HEAD' && !(verb === 'POST' && url.endsWith('/graphql'))
}

/** `fetch` that reads at most `MAX_ANSWER_BYTES` of an answer. */
function cappedFetch(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init)
    let body: Buffer
    try {
      body = await readCapped(response, MAX_ANSWER_BYTES)
    } catch (error: unknown) {
      if (!(error instanceof TooLargeError)) throw error
      return Response.json({ message: error.message }, { status: TOO_LARGE })
    }
    const empty = [101, 204, 205, 304].includes(response.status)
    const { status, statusText, headers } = response
    return new Response(empty ? null : body, { status, statusText, headers })
  }
}

/** Request options that are not text sent as it is: where it goes, the token, how it is sent. */
const NOT_SENT_TEXT = new Set(['method', 'baseUrl', 'headers', 'request', 'mediaType'])

/** `value` with every string in it redacted, arrays and plain objects copied. */
function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redact(value)
  if (Array.isArray(value)) return value.map(redactValue)
  if (value === null || typeof value !== 'object') return value
  if (Object.getPrototypeOf(value) !== Object.prototype) return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(item)]))
}

const GitHubOctokit = Octokit.plugin(retry, throttling)
type ThrottleOptions = NonNullable<ConstructorParameters<typeof GitHubOctokit>[0]>['throttle']

/**
 * In place of the throttling plugin's queues, which space writes 1 s apart (3 s for those that
 * notify): a step's few writes each have a budget of seconds that spacing would spend waiting.
 */
const UNSPACED = {
  key: () => ({
    schedule: <T>(_options: unknown, task: (...args: unknown[]) => T, ...args: unknown[]) =>
      Promise.resolve(task(...args))
  })
}

/** Octokit for one step: its retries and rate-limit waits stay within `deadline`. */
function createOctokit(options: GitHubOptions) {
  const now = options.now ?? Date.now
  // A rate limit is waited for once, only when the wait ends before the deadline, and never to
  // send a write again: a refused POST is reported, not repeated.
  const onLimit = (seconds: number, { method, url }: Sent, _: unknown, waited: number) =>
    waited < 1 && !isWrite(method, url) && now() + seconds * 1000 < options.deadline()
  const baseUrl = options.baseUrl?.replace(/\/+$/, '') ?? gitHubApiUrl()
  const proxied = proxiedFetch(new URL(baseUrl)) as unknown as typeof fetch
  const id = process.env.ACTIONS_ORCHESTRATION_ID?.trim()
  const tag = id ? ` actions_orchestration_id/${id.replace(/[^a-z0-9_.-]/gi, '_')}` : ''
  const octokit = new GitHubOctokit({
    baseUrl,
    auth: `token ${options.token}`,
    userAgent: options.userAgent.includes(tag) ? options.userAgent : options.userAgent + tag,
    retry: { retries: 2, doNotRetry: [400, 401, 403, 404, 410, TOO_LARGE, 422, 451] },
    throttle: {
      onRateLimit: onLimit,
      onSecondaryRateLimit: onLimit,
      write: UNSPACED,
      notifications: UNSPACED
    } as unknown as ThrottleOptions,
    request: { fetch: cappedFetch(proxied) }
  })
  octokit.hook.before('request', (request) => {
    // A write that failed with a 5xx or no answer may have landed: the retry plugin must not
    // send it again (`createOnce` and `sendingAgain` in policy.ts decide that instead).
    if (isWrite(request.method, request.url)) request.request = { ...request.request, retries: 0 }
    // Whatever a request carries is published to everyone who can read the repository.
    for (const [key, value] of Object.entries(request)) {
      if (!NOT_SENT_TEXT.has(key)) request[key] = redactValue(value)
    }
  })
  return octokit
}

type Request = [route: string, params: object, signal: AbortSignal]

/** The GitHub calls of one step, over Octokit with its rules. */
export function createGitHubApi(options: GitHubOptions): GitHubApi {
  const octokit = createOctokit(options)
  /** One request, bounded by `signal`: its answer and the `link` header that pages it. */
  const send = async (...[route, params, signal]: Request) => {
    const answer = await octokit.request(route, { ...params, request: { signal } })
    return { data: answer.data as unknown, link: answer.headers.link ?? '' }
  }
  const read = async <T>(schema: z.ZodType<T>, ...request: Request) =>
    schema.parse((await send(...request)).data)
  const readList = async <T>(schema: z.ZodType<T>, ...request: Request) =>
    answer.items(schema, answer.asList((await send(...request)).data))
  /** Undefined where GitHub answers 404: a deleted comment, someone who is no collaborator. */
  const readOrGone = <T>(schema: z.ZodType<T>, ...request: Request) =>
    read(schema, ...request).catch((error: unknown) => {
      if (gitHubError(error).status === 404) return undefined
      throw error
    })
  /** The token's account, once GitHub named it: it does not change within a step. */
  let account: Account | undefined
  return {
    async compare(owner, repo, base, head, signal) {
      const route = 'GET /repos/{owner}/{repo}/compare/{basehead}'
      const basehead = `${base}...${head}`
      const parsed = await read(answer.ComparisonSchema, route, { owner, repo, basehead }, signal)
      const commits = answer.items(answer.CommitSchema, parsed.commits).map((c) => c.commit)
      const total = parsed.total_commits
      return {
        url: parsed.html_url,
        commits,
        // Never fewer than were listed, whatever the count says.
        totalCommits: total === undefined ? undefined : Math.max(total, commits.length),
        files: answer.items(answer.FileSchema, parsed.files)
      }
    },
    async commit(owner, repo, ref, signal) {
      const route = 'GET /repos/{owner}/{repo}/commits/{ref}'
      const { commit, url, files } = await read(
        answer.CommitSchema,
        route,
        { owner, repo, ref },
        signal
      )
      return { url, commits: [commit], files }
    },
    committedAt: (owner, repo, ref, signal) =>
      read(
        answer.CommittedAtSchema,
        'GET /repos/{owner}/{repo}/commits/{ref}',
        { owner, repo, ref, per_page: 1 },
        signal
      ),
    async pullFiles(owner, repo, number, maxFiles, signal) {
      const route = 'GET /repos/{owner}/{repo}/pulls/{pull_number}/files'
      const files: ChangedFile[] = []
      let page = 1
      // However the pages are cut, no more requests than full pages of 100 would take.
      for (; files.length < maxFiles && page <= Math.ceil(maxFiles / 100); page++) {
        const params = { owner, repo, pull_number: number, per_page: 100, page }
        const { data, link } = await send(route, params, signal)
        const list = answer.asList(data)
        files.push(...answer.items(answer.FileSchema, list))
        // The last page has no `next` link: a pull request of exactly 100 files takes one request.
        if (list.length < 100 || !link.includes('rel="next"')) {
          return { files, complete: true, pages: page }
        }
      }
      return { files: files.slice(0, maxFiles), complete: false, pages: page - 1 }
    },
    commitPulls: (owner, repo, sha, signal) =>
      readList(
        answer.CommitPullSchema,
        'GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls',
        { owner, repo, commit_sha: sha, per_page: 100 },
        signal
      ),
    async listComments(owner, repo, number, page, signal) {
      const route = 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments'
      const params = { owner, repo, issue_number: number, per_page: 100, page }
      const { data, link } = await send(route, params, signal)
      const last = /[?&]page=(\d+)[^>]*>;\s*rel="last"/.exec(link)
      const comments = answer.items(answer.IssueCommentSchema, answer.asList(data))
      return { comments, lastPage: last ? Number(last[1]) : page }
    },
    async viewer(signal) {
      if (account) return account
      const data = await octokit.graphql(answer.GRAPHQL_QUERIES.viewer, { request: { signal } })
      return (account = answer.ViewerSchema.parse(data).viewer)
    },
    async history(owner, repo, sha, first, after, signal) {
      const variables = { owner, repo, sha, first, after: after ?? null, request: { signal } }
      const history = answer.HistorySchema.parse(
        await octokit.graphql(answer.GRAPHQL_QUERIES.history, variables)
      )
      account = history.viewer
      return history
    },
    createComment: (owner, repo, number, body, signal) =>
      read(
        answer.IssueCommentSchema,
        'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { owner, repo, issue_number: number, body },
        signal
      ),
    updateComment: (owner, repo, id, body, signal) =>
      read(
        answer.IssueCommentSchema,
        'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
        { owner, repo, comment_id: id, body },
        signal
      ),
    getPull: (owner, repo, number, signal) =>
      read(
        answer.PullStateSchema,
        'GET /repos/{owner}/{repo}/pulls/{pull_number}',
        { owner, repo, pull_number: number },
        signal
      ),
    closePull: (owner, repo, number, signal) =>
      read(
        answer.PullStateSchema,
        'PATCH /repos/{owner}/{repo}/pulls/{pull_number}',
        { owner, repo, pull_number: number, state: 'closed' },
        signal
      ),
    async requestReviewers(owner, repo, number, { users, teams }, signal) {
      const route = 'POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers'
      const params = { owner, repo, pull_number: number }
      await send(route, { ...params, reviewers: [...users], team_reviewers: [...teams] }, signal)
    },
    async addLabels(owner, repo, number, labels, signal) {
      const route = 'POST /repos/{owner}/{repo}/issues/{issue_number}/labels'
      await send(route, { owner, repo, issue_number: number, labels: [...labels] }, signal)
    },
    permission: (owner, repo, username, signal) =>
      readOrGone(
        answer.PermissionSchema,
        'GET /repos/{owner}/{repo}/collaborators/{username}/permission',
        { owner, repo, username },
        signal
      ),
    getComment: (owner, repo, id, signal) =>
      readOrGone(
        answer.IssueCommentSchema,
        'GET /repos/{owner}/{repo}/issues/comments/{comment_id}',
        { owner, repo, comment_id: id },
        signal
      ),
    async react(owner, repo, id, content, signal) {
      const route = 'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions'
      await send(route, { owner, repo, comment_id: id, content }, signal)
    },
    branchCommits: (owner, repo, branch, since, signal) =>
      readList(
        answer.ListedCommitSchema,
        'GET /repos/{owner}/{repo}/commits',
        { owner, repo, sha: branch, since, per_page: 20 },
        signal
      ),
    defaultBranch: (owner, repo, signal) =>
      read(answer.RepositorySchema, 'GET /repos/{owner}/{repo}', { owner, repo }, signal),
    async commitChecks(owner, repo, ref, signal) {
      const route = 'GET /repos/{owner}/{repo}/commits/{ref}'
      const params = { owner, repo, ref, per_page: 100 }
      const [combined, runs] = await Promise.all([
        read(answer.CombinedStatusSchema, `${route}/status`, params, signal),
        read(answer.CheckRunsSchema, `${route}/check-runs`, params, signal)
      ])
      return {
        statuses: answer.items(answer.ListedStatusSchema, combined.statuses),
        runs: answer.items(answer.ListedCheckRunSchema, runs.check_runs)
      }
    },
    async createStatus(owner, repo, sha, { state, context, description, targetUrl }, signal) {
      const params = { owner, repo, sha, state, context, description }
      const target = targetUrl ? { target_url: targetUrl } : {}
      await send('POST /repos/{owner}/{repo}/statuses/{sha}', { ...params, ...target }, signal)
    }
  }
}
