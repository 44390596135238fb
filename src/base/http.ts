/** The one HTTP layer under both clients: the runner's proxy, a read cap, the user agent. */
import { HttpClient } from '@actions/http-client'
import {
  DecoratorHandler,
  fetch as undiciFetch,
  getGlobalDispatcher,
  type Dispatcher,
  type RequestInfo,
  type RequestInit
} from 'undici'
import { describeLink } from './sanitize.js'

/** The action's version, sent in the User-Agent; kept equal to package.json by a test. */
export const VERSION = '1.0.0'

export const USER_AGENT = `mintlify-agent-action/${VERSION}`

/**
 * Whether `hostname` is this machine: the one definition both plain http and the proxy bypass
 * use, so a key sent in clear text never leaves the machine.
 */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase()
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  )
}

/** One path segment; `.` and `..` are refused, as every URL parser resolves them even encoded. */
export function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new Error(`"${value}" cannot be used as a path segment`)
  }
  return encodeURIComponent(value)
}

/** The workflow's GitHub REST API: GitHub Enterprise Server sets `GITHUB_API_URL`. */
export function gitHubApiUrl(env: NodeJS.ProcessEnv = process.env): string {
  return (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '')
}

function dispatcherFor(baseUrl: URL): Dispatcher {
  return (
    (isLoopback(baseUrl.hostname)
      ? undefined
      : new HttpClient(USER_AGENT).getAgentDispatcher(baseUrl.href)) ?? getGlobalDispatcher()
  )
}

/** undici's forwarding handler, typed with the callbacks it forwards (its typings omit them). */
const Forwarding = DecoratorHandler as unknown as new (
  handler: Dispatcher.DispatchHandlers
) => Dispatcher.DispatchHandlers & { onConnect(abort: (err?: Error) => void): void }

/** `onConnect` comes after any proxy tunnel and TLS handshake, just before the request leaves. */
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
 * undici's fetch through the runner's proxy; until `sent` is called, a failure provably left the
 * server untouched.
 */
export function proxiedFetch(baseUrl: URL) {
  const base = dispatcherFor(baseUrl)
  return (url: RequestInfo, init: RequestInit = {}, sent?: () => void) => {
    const dispatcher = sent
      ? base.compose(
          (dispatch) => (opts, handler) => dispatch(opts, new SentWatcher(handler, sent))
        )
      : base
    return undiciFetch(url, { ...init, dispatcher })
  }
}

/** An answer larger than the cap, refused rather than held in memory. */
export class TooLargeError extends Error {
  override name = 'TooLargeError'
  constructor(maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`)
  }
}

interface Readable {
  readonly headers: { get(name: string): string | null }
  readonly body?: ReadableStream<Uint8Array> | null
  text(): Promise<string>
}

/** Reads a body whole, refusing one over `maxBytes` (declared or as it streams). */
export async function readCapped(response: Readable, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined)
    throw new TooLargeError(maxBytes)
  }
  if (!response.body) {
    const whole = Buffer.from(await response.text(), 'utf8')
    if (whole.byteLength > maxBytes) throw new TooLargeError(maxBytes)
    return whole
  }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw new TooLargeError(maxBytes)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

/**
 * Why the proxy variable for `baseUrl` is unusable, which the runner's proxy support would crash
 * on or silently ignore; checked before any request.
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
