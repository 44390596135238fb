// @ts-check
import { matchPreviewRoute } from './preview.js'

/**
 * @typedef {'create' | 'get' | 'message' | import('./preview.js').PreviewRouteKind} RouteKind
 * @typedef {object} Route
 * @property {RouteKind} kind
 * @property {'GET' | 'POST'} method the one method the route answers
 * @property {string} projectId percent-decoded
 * @property {string | null} jobId percent-decoded; null on the create route
 * @property {string} [statusId] percent-decoded, on the preview status route
 * @typedef {{ status: 400 | 404, error: string }} RouteError
 */

/**
 * Matches a raw request target against the v2 agent routes.
 *
 * Literal `.` and `..` segments are resolved first, as servers and proxies in front of a real API
 * do, so an id such as `..` is reachable only when the client encodes it; then each segment is
 * percent-decoded on its own, so `%2F` inside an id never splits it.
 *
 * @param {string} target
 * @returns {Route | RouteError}
 */
export function matchRoute(target) {
  // The v1 preview deployment routes (`preview.js`), beside the agent's.
  const preview = matchPreviewRoute(target)
  if (preview) return preview
  const pathname = target.split('?', 1)[0] ?? ''
  if (!pathname.startsWith('/')) return { status: 404, error: 'Not found' }

  /** @type {string[]} */
  const segments = []
  try {
    for (const raw of resolveDotSegments(pathname.slice(1).split('/'))) {
      segments.push(decodeURIComponent(raw))
    }
  } catch {
    return { status: 400, error: 'Malformed percent-encoding in the request path' }
  }

  const [version, agent, projectId, job, jobId, message, ...rest] = segments
  if (version !== 'v2' || agent !== 'agent' || !projectId || job !== 'job' || rest.length > 0) {
    return { status: 404, error: 'Not found' }
  }
  if (jobId === undefined) return { kind: 'create', method: 'POST', projectId, jobId: null }
  if (jobId === '') return { status: 404, error: 'Not found' }
  if (message === undefined) return { kind: 'get', method: 'GET', projectId, jobId }
  if (message === 'message') return { kind: 'message', method: 'POST', projectId, jobId }
  return { status: 404, error: 'Not found' }
}

/**
 * RFC 3986 dot-segment removal on still-encoded segments.
 *
 * @param {string[]} segments
 * @returns {string[]}
 */
export function resolveDotSegments(segments) {
  /** @type {string[]} */
  const out = []
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1
    if (segment === '.' || segment === '..') {
      if (segment === '..') out.pop()
      // A trailing dot segment leaves a directory path behind, like `/a/b/..` → `/a/`.
      if (last) out.push('')
      return
    }
    out.push(segment)
  })
  return out
}

/** The project id that plays a project the API does not know, while `projects` is null. */
export const UNKNOWN_PROJECT = 'proj_unknown'

/**
 * Who may do what, as the platform decides before a route runs.
 *
 * @typedef {object} Access
 * @property {string[] | null} projects the project ids the API knows; null: every id except
 *   `UNKNOWN_PROJECT`
 * @property {'write' | 'read'} keyScope `read`: the key may read jobs but every POST answers 403
 * @property {string[] | null} ipAllowlist the only client addresses the key may be used from;
 *   null: any address
 * @property {boolean} keyExpired the key is the right one, but it has expired (401)
 */

/**
 * @typedef {object} Caller
 * @property {string | undefined} authorization the request's Authorization header
 * @property {string} address the client's IP address
 * @property {string} apiKey the one key the simulator accepts
 */

/**
 * Whether the API refuses a request before its route runs, in the order it checks: the key
 * (401), then its scope and the caller's address (403), then the project (404).
 *
 * @param {Route} route
 * @param {Caller} caller
 * @param {Access} access
 * @returns {{ status: 401 | 403 | 404, error: string, headers?: Record<string, string> } | undefined}
 */
export function refuse(route, caller, access) {
  if (caller.authorization !== `Bearer ${caller.apiKey}`) {
    return {
      status: 401,
      error: 'Unauthorized: missing or invalid API key',
      headers: { 'www-authenticate': 'Bearer' }
    }
  }
  if (access.keyExpired) {
    return {
      status: 401,
      error: 'Unauthorized: this API key has expired',
      headers: { 'www-authenticate': 'Bearer error="invalid_token"' }
    }
  }
  const address = plainAddress(caller.address)
  if (access.ipAllowlist !== null && !access.ipAllowlist.map(plainAddress).includes(address)) {
    return {
      status: 403,
      error: `Forbidden: requests from ${address} are not in this organization's IP allowlist`
    }
  }
  if (access.keyScope === 'read' && route.method === 'POST') {
    return { status: 403, error: 'Forbidden: this API key is read-only' }
  }
  const known =
    access.projects === null
      ? route.projectId !== UNKNOWN_PROJECT
      : access.projects.includes(route.projectId)
  if (!known) return { status: 404, error: 'Project not found' }
  return undefined
}

/**
 * An IPv4 address as the server saw it, without the IPv6 mapping prefix (`::ffff:127.0.0.1`).
 *
 * @param {string} address
 * @returns {string}
 */
export function plainAddress(address) {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')
}
