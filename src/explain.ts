/**
 * The words for a failed request: what the server or the network did, and what the user can do
 * about it. Pure; untrusted text is quoted on its way in.
 */
import { API_KEYS_PAGE } from './errors.js'
import { forLog } from './sanitize.js'

/** The request that failed, as far as its advice depends on it. */
export type Operation = 'create' | 'poll' | 'message'

/** The ids an explanation may name. */
export interface Ids {
  readonly projectId: string
  readonly jobId?: string
}

/** The advice a user needs for each HTTP failure, with the server's own words quoted. */
export function describeHttpFailure(
  operation: Operation,
  status: number,
  serverMessage: string,
  ids: Ids
): string {
  const said = serverMessage ? ` The server said: ${serverMessage}` : ''
  const project = `"${forLog(ids.projectId, 80)}"`
  const job = `"${forLog(ids.jobId ?? '', 80)}"`
  switch (status) {
    case 400:
      return operation === 'message'
        ? `The API refused the message to agent job ${job} (HTTP 400).` +
            `${said || ' It gave no reason.'} The job may no longer take messages (it may be ` +
            'archived or failed): start a new job by running the step without job-id.'
        : `The API rejected the request (HTTP 400).${said || ' It gave no reason.'}`
    case 401:
      return (
        'The API key was not accepted (HTTP 401): it is wrong, expired or revoked. Admin keys ' +
        'expire 7 to 90 days after they are made (90 by default), so a key that used to work ' +
        `can stop. Create an admin API key on ${API_KEYS_PAGE} and store it in the secret ` +
        `passed as api-key.${said}`
      )
    case 403:
      return (
        'The API key is not allowed to run the agent (HTTP 403): it lacks permission for project ' +
        `${project}, or the plan does not include the agent.${said}`
      )
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

/** The message for a redirect, which is never followed. */
export function describeRedirect(status: number, location: string | null): string {
  return (
    `The API answered with a redirect (HTTP ${status})` +
    (location ? ` to ${forLog(location, 200)}` : '') +
    '. Redirects are not followed, so the API key is never sent to another address: set ' +
    'base-url to the final API origin.'
  )
}

/** The server's `error` text from a JSON error body, or the start of whatever else it sent. */
export function serverText(body: string): string {
  const trimmed = body.trim()
  if (!trimmed) return ''
  try {
    const parsed: unknown = JSON.parse(trimmed)
    if (parsed && typeof parsed === 'object' && 'error' in parsed) {
      const error = parsed.error
      if (typeof error === 'string') return forLog(error)
      if (error && typeof error === 'object' && 'message' in error) {
        const message = error.message
        if (typeof message === 'string') return forLog(message)
      }
    }
  } catch {
    // Not JSON: a proxy's HTML page or plain text; quote its start.
  }
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1]
  const plain = /^<(!doctype|html|head|body)\b/i.test(trimmed)
    ? (title ?? trimmed.replace(/<[^>]*>/g, ' '))
    : trimmed
  return forLog(plain.replace(/\s+/g, ' ').trim(), 200)
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

/** The innermost message of an error chain, with the codes it does not already name. */
export function describeNetworkError(error: unknown): string {
  const chain = causes(error)
  const deepest = chain[chain.length - 1]
  const message = deepest === undefined ? String(error) : messageOf(deepest)
  const unsaid = [...new Set(errorCodes(error))].filter((code) => !message.includes(code))
  return forLog(unsaid.length ? `${message} (${unsaid.join(', ')})` : message, 200)
}

/**
 * An error and its causes, outermost first. Errors are read by shape, not `instanceof`: the
 * network stack may create them in another realm.
 */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = []
  let current: unknown = error
  while (current !== undefined && current !== null && !chain.includes(current)) {
    chain.push(current)
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined
  }
  return chain
}

function messageOf(error: unknown): string {
  if (typeof error === 'string') return error
  if (error && typeof error === 'object' && 'message' in error) return String(error.message)
  return String(error)
}

/** Why a request that never reached the API cannot be sent at all, when retrying cannot help. */
export type Refusal =
  'untrusted-certificate' | 'certificate-name' | 'tls-handshake' | 'proxy-auth' | 'bad-port'

const ADVICE: Record<Refusal, string> = {
  'untrusted-certificate':
    'The server certificate is not trusted: if a proxy or gateway re-signs TLS, point ' +
    'NODE_EXTRA_CA_CERTS at its CA certificate.',
  'certificate-name':
    "The server certificate is valid but not for this host name: check base-url's host, or the " +
    'proxy that answers for it; a CA certificate cannot fix this.',
  'tls-handshake':
    'The TLS handshake failed before anything was sent: check that base-url names an https ' +
    'server (a plain-http port answers TLS with garbage).',
  'proxy-auth':
    'The proxy asks for credentials (HTTP 407): put them in the proxy URL, as in ' +
    'HTTPS_PROXY=http://user:password@proxy.example:3128.',
  'bad-port':
    'That port is on the list of ports fetch refuses to use (for example 6000 or 6667): serve ' +
    'the API on another port.'
}

/**
 * Classifies an error thrown before any answer arrived into a refusal that retrying cannot fix,
 * or undefined when trying again may work.
 */
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

/** The advice for a refusal. */
export function refusalAdvice(kind: Refusal): string {
  return ADVICE[kind]
}
