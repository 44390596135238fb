import { HttpClient } from '@actions/http-client'
import { fetch as undiciFetch } from 'undici'
import { API_KEYS_PAGE, ApiError, CancelledError, type Failure, type Operation } from './errors.js'
import { parseJob, type Job } from './job.js'
import { parseRetryAfter } from './retry.js'
import { quote } from './sanitize.js'
import { formatDuration } from './duration.js'

/** The parts of a fetch response the client reads. */
export interface HttpResponse {
  readonly status: number
  readonly statusText?: string
  readonly headers: { get(name: string): string | null }
  text(): Promise<string>
}

export interface HttpRequest {
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
  redirect: 'manual'
  signal: AbortSignal
}

/** A fetch function; the default is undici's, through the runner's proxy when one is set. */
export type Fetch = (url: string, init: HttpRequest) => Promise<HttpResponse>

export interface ClientOptions {
  readonly baseUrl: URL
  readonly projectId: string
  readonly apiKey: string
  readonly userAgent: string
  readonly fetch?: Fetch
  readonly now?: () => number
  readonly debug?: (message: string) => void
}

/** One call per request: the client never retries; the loops in `poll.ts` decide that. */
export interface ApiClient {
  /** Starts an agent job with `prompt`. */
  createJob(prompt: string, timeoutMs: number, signal: AbortSignal): Promise<Job>
  /** Reads the job with id `jobId`. */
  getJob(jobId: string, timeoutMs: number, signal: AbortSignal): Promise<Job>
}

/**
 * Errors whose codes mean the connection never opened, so the server cannot have seen the
 * request. Anything else that fails after `fetch` starts is taken to be possibly delivered.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_NODATA',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT'
])

/** TLS failures that retrying cannot fix: the certificate chain is not trusted or does not match. */
const TLS_CODE = /CERT|SELF_SIGNED|UNABLE_TO_|ERR_TLS_|DEPTH_ZERO/

/** Creates the API client for one project. */
export function createClient(options: ClientOptions): ApiClient {
  const fetch = options.fetch ?? proxyAwareFetch(options.baseUrl, options.userAgent)
  const now = options.now ?? Date.now
  const debug = options.debug ?? (() => undefined)
  const prefix = options.baseUrl.pathname.replace(/\/+$/, '')
  const projectPath = `${prefix}/v2/agent/${pathSegment(options.projectId)}`

  async function send(
    operation: Operation,
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    timeoutMs: number,
    signal: AbortSignal,
    describe: (status: number, serverText: string) => string
  ): Promise<Job> {
    const url = `${options.baseUrl.origin}${path}`
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: `Bearer ${options.apiKey}`,
      'User-Agent': options.userAgent
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    const started = now()
    let response: HttpResponse
    let text: string
    // One controller per request, released when it settles: the run's signal lives for the whole
    // step, and tying a short-lived signal to it (AbortSignal.any) would keep every request alive.
    const request = new AbortController()
    const cancel = () => request.abort()
    signal.addEventListener('abort', cancel, { once: true })
    let timedOut = false
    const timer = setTimeout(
      () => {
        timedOut = true
        request.abort()
      },
      Math.max(1, timeoutMs)
    )
    try {
      response = await fetch(url, {
        method,
        headers,
        body,
        redirect: 'manual',
        signal: request.signal
      })
      text = await response.text()
    } catch (error: unknown) {
      if (signal.aborted) throw abortReason(signal)
      const failure = timedOut ? ({ kind: 'network', sent: true } as const) : networkFailure(error)
      const reason = timedOut
        ? `no answer within ${formatDuration(timeoutMs)}`
        : describeNetworkError(error)
      debug(`${method} ${url} failed after ${formatDuration(now() - started)}: ${reason}`)
      const advice =
        failure.kind === 'tls'
          ? ' The server certificate is not trusted: if a proxy or gateway re-signs TLS, point NODE_EXTRA_CA_CERTS at its CA certificate.'
          : ''
      throw new ApiError(
        `Could not reach ${options.baseUrl.origin}: ${reason}.${advice}`,
        operation,
        failure
      )
    } finally {
      clearTimeout(timer)
      signal.removeEventListener('abort', cancel)
    }

    const requestId =
      response.headers.get('x-request-id') ?? response.headers.get('cf-ray') ?? undefined
    debug(
      `${method} ${url} → ${response.status} in ${formatDuration(now() - started)}` +
        (requestId ? ` (request id ${quote(requestId, 100)})` : '')
    )
    const safeRequestId = requestId ? quote(requestId, 100) : undefined

    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location')
      throw new ApiError(
        `The API answered with a redirect (HTTP ${response.status})` +
          (location ? ` to ${quote(location, 200)}` : '') +
          '. Redirects are not followed, so the API key is never sent to another address: set ' +
          'base-url to the final API origin.',
        operation,
        { kind: 'http', status: response.status },
        safeRequestId
      )
    }
    if (response.status < 200 || response.status >= 300) {
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now())
      const failure: Failure = { kind: 'http', status: response.status, retryAfterMs }
      throw new ApiError(
        describe(response.status, serverText(text)),
        operation,
        failure,
        safeRequestId
      )
    }

    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
    const job = parseJob(parsed)
    if (!job) {
      throw new ApiError(
        `The API answered HTTP ${response.status} with a body that is not a job` +
          (text.trim() ? `: ${quote(text, 120)}` : ' (empty body)'),
        operation,
        { kind: 'invalid-response' },
        safeRequestId
      )
    }
    return job
  }

  return {
    createJob(prompt, timeoutMs, signal) {
      return send(
        'create',
        'POST',
        `${projectPath}/job`,
        JSON.stringify({ prompt }),
        timeoutMs,
        signal,
        (status, message) => describeHttpFailure('create', status, message, options.projectId)
      )
    },
    getJob(jobId, timeoutMs, signal) {
      return send(
        'poll',
        'GET',
        `${projectPath}/job/${pathSegment(jobId)}`,
        undefined,
        timeoutMs,
        signal,
        (status, message) => describeHttpFailure('poll', status, message, options.projectId, jobId)
      )
    }
  }
}

/**
 * Encodes a value as exactly one path segment. `.` and `..` cannot be one: every URL parser
 * resolves them (even percent-encoded), so they are refused rather than sent somewhere else.
 */
export function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new Error(`"${value}" cannot be used as a path segment`)
  }
  return encodeURIComponent(value)
}

/** The advice a user needs for each HTTP failure, with the server's own words quoted. */
export function describeHttpFailure(
  operation: Operation,
  status: number,
  serverMessage: string,
  projectId: string,
  jobId?: string
): string {
  const said = serverMessage ? ` The server said: ${serverMessage}` : ''
  switch (status) {
    case 400:
      return `The API rejected the request (HTTP 400).${said || ' It gave no reason.'}`
    case 401:
      return (
        'The API key was not accepted (HTTP 401): it is wrong, expired or revoked. Create an admin ' +
        `API key on ${API_KEYS_PAGE} and store it in the secret passed as api-key.${said}`
      )
    case 403:
      return (
        'The API key is not allowed to run the agent (HTTP 403): it lacks permission for project ' +
        `"${quote(projectId, 80)}", or the plan does not include the agent.${said}`
      )
    case 404:
      return operation === 'create'
        ? `Project "${quote(projectId, 80)}" was not found (HTTP 404): check project-id; the ` +
            `project id is shown on ${API_KEYS_PAGE}.${said}`
        : `Agent job "${quote(jobId ?? '', 80)}" was not found in project "${quote(projectId, 80)}" ` +
            `(HTTP 404).${said}`
    case 429:
      return (
        'Rate limited (HTTP 429): the platform allows 100 agent jobs per project per hour.' + said
      )
    default:
      return `The API answered HTTP ${status}${status >= 500 ? ', a server error' : ''}.${said}`
  }
}

/** The server's `error` text from a JSON error body, or the start of whatever else it sent. */
function serverText(body: string): string {
  const trimmed = body.trim()
  if (!trimmed) return ''
  try {
    const parsed: unknown = JSON.parse(trimmed)
    if (parsed && typeof parsed === 'object' && 'error' in parsed) {
      const error = parsed.error
      if (typeof error === 'string') return quote(error)
      if (error && typeof error === 'object' && 'message' in error) {
        const message = error.message
        if (typeof message === 'string') return quote(message)
      }
    }
  } catch {
    // Not JSON: a proxy's HTML page or plain text; quote its start.
  }
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1]
  const plain = /^<(!doctype|html|head|body)\b/i.test(trimmed)
    ? (title ?? trimmed.replace(/<[^>]*>/g, ' '))
    : trimmed
  return quote(plain.replace(/\s+/g, ' ').trim(), 200)
}

function errorCodes(error: unknown, seen = new Set<unknown>()): string[] {
  if (!error || typeof error !== 'object' || seen.has(error)) return []
  seen.add(error)
  const codes: string[] = []
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown }
  if (typeof code === 'string') codes.push(code)
  codes.push(...errorCodes(cause, seen))
  if (Array.isArray(errors)) for (const inner of errors) codes.push(...errorCodes(inner, seen))
  return codes
}

function networkFailure(error: unknown): Failure {
  const codes = errorCodes(error)
  if (codes.some((code) => TLS_CODE.test(code))) return { kind: 'tls' }
  const sent = codes.length === 0 || !codes.every((code) => NOT_SENT_CODES.has(code))
  return { kind: 'network', sent }
}

function describeNetworkError(error: unknown): string {
  let deepest: unknown = error
  while (deepest instanceof Error && deepest.cause instanceof Error) deepest = deepest.cause
  const message = deepest instanceof Error ? deepest.message : String(deepest)
  const unsaid = [...new Set(errorCodes(error))].filter((code) => !message.includes(code))
  return quote(unsaid.length ? `${message} (${unsaid.join(', ')})` : message, 200)
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason
  return reason instanceof Error ? reason : new CancelledError('The step was cancelled.')
}

/** undici's fetch, through the proxy the runner configures (`HTTPS_PROXY`, `NO_PROXY`). */
function proxyAwareFetch(baseUrl: URL, userAgent: string): Fetch {
  const dispatcher = new HttpClient(userAgent).getAgentDispatcher(baseUrl.href)
  return async (url, init) => undiciFetch(url, dispatcher ? { ...init, dispatcher } : init)
}
