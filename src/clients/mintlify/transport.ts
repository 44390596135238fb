// The only code that touches the network for Mintlify: one request per call, with a timeout, the
// run's cancellation, the runner's proxy, a size cap and no redirects. It never retries or decides.
import { formatDuration } from '../../base/duration.js'
import { ApiError, cancellation } from '../../base/errors.js'
import { describeNetworkError, describeUnreachable, refusal } from './explain.js'
import { forLog } from '../../base/sanitize.js'
import { redact } from '../../base/secrets/redact.js'
import { proxiedFetch, readCapped, TooLargeError } from '../../base/http.js'

interface HttpResponse {
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
 * A fetch. It calls `sent` once the request is written to an open connection: a failure before
 * then provably left the server untouched. The default is undici's, through the runner's proxy.
 */
export type Fetch = (url: string, init: HttpRequest, sent: () => void) => Promise<HttpResponse>

/** Largest answer read; a bigger one is a failed request, not hundreds of megabytes of memory. */
export const MAX_ANSWER_BYTES = 1_048_576

interface TransportOptions {
  readonly baseUrl: URL
  readonly apiKey: string
  readonly userAgent: string
  readonly fetch?: Fetch
  readonly now?: () => number
  readonly debug?: (message: string) => void
}

/** An answer, whatever its status, its body already redacted of the key. */
export interface Answer {
  readonly status: number
  readonly text: string
  readonly headers: { get(name: string): string | null }
  /** The request id the server or its CDN gave, made safe to quote. */
  readonly requestId?: string
}

export interface Transport {
  /** One request to `path` below the base URL; without an answer, an `ApiError` or cancellation. */
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
  const fetch = options.fetch ?? proxiedFetch(options.baseUrl)
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
      const took = () => formatDuration(now() - started)
      // A controller per request, released when it settles: tying each request's signal to the
      // run's, which lives for the whole step, would keep every request alive.
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
        const text = redact((await readCapped(answered, MAX_ANSWER_BYTES)).toString('utf8'))
        const id = answered.headers.get('x-request-id') ?? answered.headers.get('cf-ray')
        const requestId = id ? forLog(id, 100) : undefined
        debug(
          `${method} ${url} → ${answered.status} in ${took()}` +
            (requestId ? ` (request id ${requestId})` : '')
        )
        return { status: answered.status, text, headers: answered.headers, requestId }
      } catch (error: unknown) {
        if (signal.aborted) throw cancellation(signal)
        const reason = timedOut
          ? `no answer within ${formatDuration(timeoutMs)}`
          : error instanceof TooLargeError
            ? error.message
            : describeNetworkError(error)
        debug(`${method} ${url} failed after ${took()}: ${reason}`)
        if (answered) {
          throw new ApiError(
            `${origin} answered HTTP ${answered.status}, but the answer could not be read: ` +
              `${reason}.`,
            { kind: 'lost' }
          )
        }
        if (sent) {
          throw new ApiError(`The request to ${origin} got no answer: ${reason}.`, { kind: 'lost' })
        }
        const waited = timedOut ? formatDuration(timeoutMs) : undefined
        throw new ApiError(describeUnreachable(`${origin}${prefix}`, error, waited), {
          kind: 'unsent',
          permanent: !timedOut && refusal(error) !== undefined
        })
      } finally {
        clearTimeout(timer)
        signal.removeEventListener('abort', cancel)
      }
    }
  }
}
