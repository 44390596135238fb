/**
 * Octokit as every GitHub request goes through it, built as `@actions/github` builds it
 * (`GITHUB_API_URL`, the runner's proxy, `token` auth, the orchestration id in the user agent)
 * with Octokit's retry and throttling plugins, over the one HTTP layer (`http.ts`).
 * `@actions/github` itself is not imported: it reads and parses the event file the moment it is
 * imported, so an unreadable `GITHUB_EVENT_PATH` would end the step before it could report
 * anything. The client's policy is installed once, so no call can miss it: every text sent is
 * redacted, answers are capped in size, a write is never repeated by a plugin, and no retry or
 * rate-limit wait passes the step's deadline.
 */
import { Octokit } from '@octokit/core'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import { gitHubApiUrl, proxiedFetch, readCapped, TooLargeError } from '../http.js'
import { redact } from '../secrets/redact.js'

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
export function createOctokit(options: GitHubOptions) {
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
  return octokit
}
