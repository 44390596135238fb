/**
 * The only code that touches the network for the Mintlify API: one request per call, with the
 * headers, a per-request timeout, the run's cancellation, the runner's proxy, a cap on what is
 * read, and no redirects. It never retries and never decides; it reports what provably happened.
 */
import { HttpClient } from '@actions/http-client'
import {
  DecoratorHandler,
  fetch as undiciFetch,
  getGlobalDispatcher,
  type Dispatcher
} from 'undici'
import { formatDuration } from './duration.js'
import { ApiError, cancellation } from './errors.js'
import { describeNetworkError, describeUnreachable, refusal } from './explain.js'
import { describeLink, forLog, redact } from './sanitize.js'
import { isLoopback } from './urls.js'

/** The parts of a fetch response the transport reads. */
export interface HttpResponse {
  readonly status: number
  readonly headers: { get(name: string): string | null }
  /** The body as a stream, when the fetch offers one; read with a size cap. */
  readonly body?: ReadableStream<Uint8Array> | null
  text(): Promise<string>
}

export interface HttpRequest {
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
  redirect: 'manual'
  signal: AbortSignal
}

/**
 * A fetch function. It calls `sent` when the request is written to an open connection: until
 * then, a failure provably left the server untouched. The default is undici's fetch, through the
 * runner's proxy when one is set.
 */
export type Fetch = (url: string, init: HttpRequest, sent: () => void) => Promise<HttpResponse>

/** Largest answer read; a bigger one is a failed request, not hundreds of megabytes of memory. */
export const MAX_ANSWER_BYTES = 1_048_576

export interface TransportOptions {
  readonly baseUrl: URL
  readonly apiKey: string
  readonly userAgent: string
  readonly fetch?: Fetch
  readonly now?: () => number
  readonly debug?: (message: string) => void
}

/** An answer, whatever its status: the body is already redacted of the key. */
export interface Answer {
  readonly status: number
  readonly text: string
  readonly headers: { get(name: string): string | null }
  /** The request id the server or its CDN gave, quoted. */
  readonly requestId?: string
}

export interface Transport {
  /**
   * Sends one request to `path` (below the base URL's path) and returns the answer, whatever its
   * status. Throws an `ApiError` whose failure is `unsent` or `lost` when no answer was read, or
   * the run's cancellation.
   */
  send(
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    timeoutMs: number,
    signal: AbortSignal
  ): Promise<Answer>
}

/** Creates the transport for one API origin. */
export function createTransport(options: TransportOptions): Transport {
  const fetch = options.fetch ?? proxyAwareFetch(options.baseUrl, options.userAgent)
  const now = options.now ?? Date.now
  const debug = options.debug ?? (() => undefined)
  const origin = options.baseUrl.origin
  const prefix = options.baseUrl.pathname.replace(/\/+$/, '')

  return {
    async send(method, path, body, timeoutMs, signal) {
      const url = `${origin}${prefix}${path}`
      const headers: Record<string, string> = {
        Accept: 'application/json',
        Authorization: `Bearer ${options.apiKey}`,
        'User-Agent': options.userAgent
      }
      if (body !== undefined) headers['Content-Type'] = 'application/json'
      const started = now()
      // One controller per request, released when it settles: the run's signal lives for the
      // whole step, and tying a short-lived signal to it would keep every request alive.
      const request = new AbortController()
      const cancel = () => request.abort()
      signal.addEventListener('abort', cancel, { once: true })
      let timedOut = false
      let sent = false
      let answered: HttpResponse | undefined
      const timer = setTimeout(
        () => {
          timedOut = true
          request.abort()
        },
        Math.max(1, timeoutMs)
      )
      try {
        answered = await fetch(
          url,
          { method, headers, body, redirect: 'manual', signal: request.signal },
          () => (sent = true)
        )
        const text = redact(await readCapped(answered))
        const requestId =
          answered.headers.get('x-request-id') ?? answered.headers.get('cf-ray') ?? undefined
        const safeRequestId = requestId ? forLog(requestId, 100) : undefined
        debug(
          `${method} ${url} → ${answered.status} in ${formatDuration(now() - started)}` +
            (safeRequestId ? ` (request id ${safeRequestId})` : '')
        )
        return {
          status: answered.status,
          text,
          headers: answered.headers,
          requestId: safeRequestId
        }
      } catch (error: unknown) {
        if (signal.aborted) throw cancellation(signal)
        const reason = timedOut
          ? `no answer within ${formatDuration(timeoutMs)}`
          : error instanceof TooLargeError
            ? error.message
            : describeNetworkError(error)
        debug(`${method} ${url} failed after ${formatDuration(now() - started)}: ${reason}`)
        if (answered) {
          throw new ApiError(
            `${origin} answered HTTP ${answered.status}, but the answer could not be read: ` +
              `${reason}.`,
            { kind: 'lost' }
          )
        }
        if (sent) {
          throw new ApiError(`The request to ${origin} got no answer: ${reason}.`, {
            kind: 'lost'
          })
        }
        const refused = timedOut ? undefined : refusal(error)
        throw new ApiError(
          describeUnreachable(
            `${origin}${prefix}`,
            error,
            timedOut ? formatDuration(timeoutMs) : undefined
          ),
          { kind: 'unsent', permanent: refused !== undefined }
        )
      } finally {
        clearTimeout(timer)
        signal.removeEventListener('abort', cancel)
      }
    }
  }
}

class TooLargeError extends Error {}

/** Reads a body as text, refusing one over `MAX_ANSWER_BYTES`. */
async function readCapped(response: HttpResponse): Promise<string> {
  const tooLarge = new TooLargeError(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`)
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  if (declared > MAX_ANSWER_BYTES) {
    await response.body?.cancel().catch(() => undefined)
    throw tooLarge
  }
  if (!response.body) {
    const text = await response.text()
    if (Buffer.byteLength(text) > MAX_ANSWER_BYTES) throw tooLarge
    return text
  }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** undici's forwarding handler, typed with the callbacks it forwards (its typings omit them). */
const Forwarding = DecoratorHandler as unknown as new (
  handler: Dispatcher.DispatchHandlers
) => Dispatcher.DispatchHandlers & { onConnect(abort: (err?: Error) => void): void }

/**
 * Calls `onSent` when undici writes the request to an open connection: after any proxy tunnel
 * and TLS handshake, just before the request line leaves.
 */
class SentWatcher extends Forwarding {
  readonly #onSent: () => void
  constructor(handler: Dispatcher.DispatchHandlers, onSent: () => void) {
    super(handler)
    this.#onSent = onSent
  }
  override onConnect(abort: (err?: Error) => void): void {
    this.#onSent()
    super.onConnect(abort)
  }
}

/**
 * undici's fetch, through the proxy the runner configures (`HTTPS_PROXY`, `NO_PROXY`), except for
 * a loopback base URL, which is always reached directly.
 */
function proxyAwareFetch(baseUrl: URL, userAgent: string): Fetch {
  const base: Dispatcher =
    (isLoopback(baseUrl.hostname)
      ? undefined
      : new HttpClient(userAgent).getAgentDispatcher(baseUrl.href)) ?? getGlobalDispatcher()
  return async (url, init, sent) => {
    const dispatcher = base.compose(
      (dispatch) => (opts, handler) => dispatch(opts, new SentWatcher(handler, sent))
    )
    return undiciFetch(url, { ...init, dispatcher })
  }
}

/**
 * A message to fail with before any request when the proxy variable a request to `baseUrl` would
 * use is set but is not an http(s) URL with a host (the runner's proxy support would otherwise
 * crash on it, or silently connect directly). Undefined when there is no problem.
 */
export function proxyProblem(baseUrl: URL): string | undefined {
  if (isLoopback(baseUrl.hostname)) return undefined
  const names =
    baseUrl.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY']
  const name = names.find((n) => process.env[n])
  const value = name ? (process.env[name] ?? '') : ''
  if (!name) return undefined
  // The runner's proxy support reads a value without a scheme as http://value.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`
  const parsed = URL.canParse(text) ? new URL(text) : undefined
  if (parsed && /^https?:$/.test(parsed.protocol) && parsed.hostname) return undefined
  return (
    `The environment variable ${name} is not a proxy URL (${describeLink(value)}): set it to a ` +
    'URL such as http://proxy.example:3128, or unset it.'
  )
}
