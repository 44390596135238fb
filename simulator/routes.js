// @ts-check

/**
 * @typedef {'create' | 'get' | 'message'} RouteKind
 * @typedef {object} Route
 * @property {RouteKind} kind
 * @property {'GET' | 'POST'} method the one method the route answers
 * @property {string} projectId percent-decoded
 * @property {string | null} jobId percent-decoded; null on the create route
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
