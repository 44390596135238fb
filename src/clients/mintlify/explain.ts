/** The words for a failed request: what happened, and what the user can do. Pure. */
import { z } from 'zod'
import { API_KEYS_PAGE } from '../../base/errors.js'
import { forLog, MAX_QUOTED_LENGTH } from '../../base/sanitize.js'

/** The request that failed, as far as its advice depends on it. */
export type Operation = 'create' | 'poll' | 'message'

// The causes of a 403 that Mintlify documents. Its API introduction says the REST API needs a Pro
// or Enterprise plan; its API keys can be limited to read scope (a POST then answers 403), and an
// organization can limit its keys to an IP allowlist. An expired key answers 401, not 403.
const PLAN_CAUSE =
  "the organization's plan does not include the REST API, which needs a Pro or Enterprise plan"
const ALLOWLIST_CAUSE =
  "the organization limits its keys to an IP allowlist without this runner's address: add it, " +
  'or run the step on a self-hosted runner whose address is allowed (the addresses of ' +
  'GitHub-hosted runners change)'

/** The advice a user needs for each HTTP failure, with the server's own words quoted. */
export function describeHttpFailure(
  operation: Operation,
  status: number,
  serverMessage: string,
  ids: { readonly projectId: string; readonly jobId?: string | undefined }
): string {
  const said = serverMessage ? ` The server said: ${serverMessage}` : ''
  const project = `"${forLog(ids.projectId, 80)}"`
  const job = `"${forLog(ids.jobId ?? '', 80)}"`
  const doing = operation === 'create' ? 'start an agent job' : `send a message to agent job ${job}`
  switch (status) {
    case 400:
      return operation === 'message'
        ? `The API refused the message to agent job ${job} (HTTP 400).` +
            `${said || ' It gave no reason.'} The job may no longer take messages (it may be ` +
            'archived or failed): start a new job instead (where the step gives job-id, run it without).'
        : `The API rejected the request (HTTP 400).${said || ' It gave no reason.'}`
    case 401:
      return (
        'The API key was not accepted (HTTP 401): it is wrong, or it has expired. An admin key ' +
        'expires 7, 30, 60 or 90 days after it is made, or never, as chosen when it is made ' +
        '(90 days unless changed), so a key that used to work can stop. Create a new admin API ' +
        `key on ${API_KEYS_PAGE} and store it in the secret passed as api-key.${said}`
      )
    case 403:
      return operation === 'poll'
        ? `The API refused to let this key read agent job ${job} of project ${project} ` +
            '(HTTP 403). A read-only key can still read jobs, so the likely causes are: ' +
            `${PLAN_CAUSE}; or ${ALLOWLIST_CAUSE}.${said}`
        : `The API refused to let this key ${doing} in project ${project} (HTTP 403). The ` +
            `likely causes: ${PLAN_CAUSE}; or the key is read-only (a key limited to read ` +
            'scope answers every POST with 403): create an admin key with write scope on ' +
            `${API_KEYS_PAGE} and store it in the secret passed as api-key; or ` +
            `${ALLOWLIST_CAUSE}.${said}`
    case 404:
      return operation === 'create'
        ? `Project ${project} was not found (HTTP 404): check project-id; the project id is ` +
            `shown on ${API_KEYS_PAGE}.${said}`
        : `Agent job ${job} was not found in project ${project} (HTTP 404): check job-id, and ` +
            `that the key and project-id are the ones the job was started with.${said}`
    case 429:
      return operation === 'poll'
        ? 'Rate limited while checking the job (HTTP 429). The job itself is not affected and ' +
            `keeps running.${said}`
        : 'Rate limited (HTTP 429): the platform allows 100 agent jobs and 100 follow-up ' +
            `messages per project per hour.${said}`
    default:
      return `The API answered HTTP ${status}${status >= 500 ? ', a server error' : ''}.${said}`
  }
}

/**
 * Untrusted text made safe to quote in a log line (`forLog`), then cut to at most `max`
 * characters at the end of a word, saying how much was left out; only a text with no space early
 * enough (a token, a long URL) is cut inside a word.
 */
export function quote(text: string, max: number = MAX_QUOTED_LENGTH): string {
  // Redacted before it is cut, so no cut can leave part of a secret behind.
  const safe = forLog(text, Number.MAX_SAFE_INTEGER)
  if (safe.length <= max) return safe
  const space = safe.slice(0, max + 1).search(/\s\S*$/)
  let kept = space > 0 ? safe.slice(0, space).trimEnd() : ''
  if (kept === '') {
    // Never inside an escape `forLog` wrote (`\u202e`, `\n`), nor half of a surrogate pair.
    let end = max
    const escape = safe.lastIndexOf('\\', end - 1)
    const written = /^\\(?:u[0-9a-f]{4}|[nrt])/.exec(safe.slice(escape, escape + 6))?.[0]
    if (escape >= 0 && written && escape + written.length > end) end = escape
    const code = safe.charCodeAt(end - 1)
    if (code >= 0xd800 && code <= 0xdbff) end -= 1
    kept = safe.slice(0, end)
  }
  return `${kept}… (${safe.length - kept.length} more characters)`
}

/** The message for a redirect, which is never followed. */
export function describeRedirect(status: number, location: string | null): string {
  return (
    `The API answered with a redirect (HTTP ${status})` +
    (location ? ` to ${forLog(location, 200)}` : '') +
    '. Redirects are not followed, so the API key is never sent to another address: set ' +
    'base-url to the final API origin.'
  )
}

/** A body as JSON; undefined when it is none. */
export function json(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const ErrorBody = z.object({
  error: z.union([z.string(), z.object({ message: z.string() }).transform((e) => e.message)])
})

/** The server's `error` text from a JSON error body, or the start of whatever else it sent. */
export function serverText(body: string): string {
  const trimmed = body.trim()
  if (!trimmed) return ''
  const said = ErrorBody.safeParse(json(trimmed)).data?.error
  if (said !== undefined) return quote(said)
  // A proxy's HTML page or plain text: its start.
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1]
  const plain = /^<(!doctype|html|head|body)\b/i.test(trimmed)
    ? (title ?? trimmed.replace(/<[^>]*>/g, ' '))
    : trimmed
  return quote(plain.replace(/\s+/g, ' ').trim(), 200)
}

/** Every `code` in an error, its causes and aggregated errors. */
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

// OpenSSL's own lines (`error:0A00010B:SSL routines::wrong version number`) tell a user nothing
// the error's code does not.
const OPENSSL_LINE = /(?:[0-9A-F]+:)?error:[0-9A-F]{8}:[^\n]*\n?/gi

/** The innermost message of an error chain, with the codes it does not already name. */
export function describeNetworkError(error: unknown): string {
  const chain = causes(error)
  const deepest = chain[chain.length - 1]
  const raw = deepest === undefined ? String(error) : messageOf(deepest)
  const message = raw.replace(OPENSSL_LINE, ' ').replace(/\s+/g, ' ').trim() || 'a TLS error'
  const unsaid = [...new Set(errorCodes(error))].filter((code) => !message.includes(code))
  return quote(unsaid.length ? `${message} (${unsaid.join(', ')})` : message, 200)
}

const REACH_CHECK =
  'Check base-url, and that the runner may reach that host: a firewall may drop the ' +
  'connection, or the network may allow only a proxy (set HTTPS_PROXY).'

/** How a connection failed before anything was sent, by its error codes, and what to check. */
const CONNECT_WORDS: [readonly string[], (host: string, code: string) => string][] = [
  [
    ['ECONNREFUSED'],
    (host, code) =>
      `the connection to ${host} was refused (${code}). Check base-url: nothing accepts ` +
      'connections at that host and port (leave base-url out for the hosted API, ' +
      'https://api.mintlify.com).'
  ],
  [
    ['ENOTFOUND'],
    (host, code) =>
      `the host name ${host} was not found (${code}). Check base-url's host name for a typo; ` +
      "on a self-hosted runner, also the runner's DNS."
  ],
  [
    ['EAI_AGAIN'],
    (host, code) =>
      `looking up the host name ${host} failed for now (${code}). Check the runner's DNS, and ` +
      "base-url's host name."
  ],
  [
    ['ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'EHOSTDOWN'],
    (host, code) => `there is no route to ${host} (${code}). ${REACH_CHECK}`
  ],
  [
    ['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT'],
    (host, code) => `connecting to ${host} timed out (${code}). ${REACH_CHECK}`
  ],
  [
    ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'],
    (host, code) =>
      `the connection to ${host} closed before the request was sent (${code}). Check ` +
      'base-url, and any proxy or firewall between the runner and the API.'
  ]
]

/**
 * The words for a request that never reached the API at `where` (base-url's origin and path):
 * what happened, as the error's codes tell it, or that nothing answered within `timedOut`, and
 * what to check.
 */
export function describeUnreachable(where: string, error: unknown, timedOut?: string): string {
  const head = `Could not reach ${forLog(where, 200)}:`
  if (timedOut) return `${head} no answer within ${timedOut}. ${REACH_CHECK}`
  const refused = refusal(error)
  const url = URL.canParse(where) ? new URL(where) : undefined
  if (refused) return `${head} ${refusalReason(refused, error, url)}. ${ADVICE[refused]}`
  const codes = errorCodes(error)
  for (const [known, words] of CONNECT_WORDS) {
    const code = codes.find((c) => known.includes(c))
    if (code) return `${head} ${words(forLog(url?.host ?? where, 100), code)}`
  }
  return (
    `${head} ${describeNetworkError(error)}. Check base-url, and the runner's network and ` +
    'proxy settings.'
  )
}

/** What happened, for a refusal: a code rather than the network stack's own text. */
function refusalReason(kind: Refusal, error: unknown, url: URL | undefined): string {
  if (kind === 'proxy-auth') return 'the proxy refused to connect (HTTP 407)'
  if (kind === 'bad-port') return `fetch refuses to connect to port ${url?.port || 'of base-url'}`
  if (kind !== 'tls-handshake') return describeNetworkError(error)
  const code = errorCodes(error).find((c) => c.startsWith('ERR_SSL_'))
  return `the TLS handshake failed before anything was sent (${code ?? 'TLS error'})`
}

/** An error and its causes, outermost first, read by shape: they may come from another realm. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = []
  for (let at = error; at != null && !chain.includes(at); at = (at as { cause?: unknown }).cause) {
    chain.push(at)
  }
  return chain
}

function messageOf(error: unknown): string {
  return error && typeof error === 'object' && 'message' in error
    ? String(error.message)
    : String(error)
}

/** Why a request that never reached the API cannot be sent at all, when retrying cannot help. */
type Refusal =
  'untrusted-certificate' | 'certificate-name' | 'tls-handshake' | 'proxy-auth' | 'bad-port'

const ADVICE: Record<Refusal, string> = {
  'untrusted-certificate':
    'The server certificate is not trusted: if a proxy or gateway re-signs TLS, point ' +
    'NODE_EXTRA_CA_CERTS at its CA certificate.',
  'certificate-name':
    "The server certificate is valid but not for this host name: check base-url's host, or the " +
    'proxy that answers for it; a CA certificate cannot fix this.',
  'tls-handshake':
    'Check base-url: it says https://, but the server at that host and port may not speak TLS ' +
    '(a plain-http port answers TLS with garbage; http:// is accepted for localhost), or its ' +
    'TLS versions do not match.',
  'proxy-auth':
    'The proxy asks for credentials (HTTP 407): put them in the proxy URL, as in ' +
    'HTTPS_PROXY=http://user:password@proxy.example:3128.',
  'bad-port':
    'That port is on the list of ports fetch refuses to use (for example 6000 or 6667): check ' +
    'the port in base-url, and serve the API on another port.'
}

/** The refusal an error thrown before any answer is, when retrying cannot fix it. */
export function refusal(error: unknown): Refusal | undefined {
  const codes = errorCodes(error)
  if (codes.includes('ERR_TLS_CERT_ALTNAME_INVALID')) return 'certificate-name'
  if (codes.some((code) => /CERT|SELF_SIGNED|UNABLE_TO_|DEPTH_ZERO|ERR_TLS_/.test(code))) {
    return 'untrusted-certificate'
  }
  if (codes.some((code) => code.startsWith('ERR_SSL_'))) return 'tls-handshake'
  const text = causes(error).map(messageOf).join(' ')
  if (/Proxy response \(407\)/.test(text)) return 'proxy-auth'
  if (/\bbad port\b/.test(text)) return 'bad-port'
  return undefined
}
