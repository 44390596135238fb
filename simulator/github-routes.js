// @ts-check
import { resolveDotSegments } from './routes.js'

/**
 * @typedef {'compare' | 'commit' | 'commitPulls' | 'pullFiles' | 'listComments'
 *   | 'createComment' | 'getComment' | 'updateComment'} GitHubRouteKind
 * @typedef {object} GitHubRoute
 * @property {GitHubRouteKind} kind
 * @property {'GET' | 'POST' | 'PATCH'} method the one method the route answers
 * @property {string} owner percent-decoded
 * @property {string} repo percent-decoded
 * @property {string} prefix `/api/v3` when the request came that way (GitHub Enterprise Server's
 *   layout), otherwise empty
 * @property {string} pathname the path as received, without the query
 * @property {URLSearchParams} query
 * @property {string} [base] compare: the base ref or sha
 * @property {string} [head] compare: the head ref or sha
 * @property {string} [ref] commit and commitPulls: the ref or sha asked for
 * @property {number} [number] pullFiles, listComments, createComment: the pull or issue number
 * @property {number} [commentId] getComment, updateComment
 * @typedef {{ status: 400 | 404, message: string }} GitHubRouteError
 */

/** Every kind, in the order the routes are documented. */
export const GITHUB_ROUTE_KINDS = /** @type {const} */ ([
  'compare',
  'commit',
  'commitPulls',
  'pullFiles',
  'listComments',
  'createComment',
  'getComment',
  'updateComment'
])

const ENTERPRISE_PREFIX = '/api/v3'

/**
 * Matches a raw request target against the GitHub REST routes the simulator plays. Anything under
 * `/repos/` (or `/api/v3/repos/`, as GitHub Enterprise Server serves it) belongs to the fake
 * GitHub; every other path is left to the Mintlify routes.
 *
 * @param {string} target
 * @param {string} method
 * @returns {GitHubRoute | GitHubRouteError | undefined} undefined when the path is not GitHub's
 */
export function matchGitHubRoute(target, method) {
  const [pathname = '', search = ''] = splitOnce(target, '?')
  const prefix = pathname.startsWith(`${ENTERPRISE_PREFIX}/repos/`) ? ENTERPRISE_PREFIX : ''
  if (!pathname.startsWith(`${prefix}/repos/`)) return undefined

  /** @type {string[]} */
  const segments = []
  try {
    for (const raw of resolveDotSegments(pathname.slice(prefix.length + 1).split('/'))) {
      segments.push(decodeURIComponent(raw))
    }
  } catch {
    return { status: 400, message: 'Malformed percent-encoding in the request path' }
  }
  const [repos, owner, repo, area, ...rest] = segments
  if (repos !== 'repos' || !owner || !repo || !area) return NOT_FOUND

  const query = new URLSearchParams(search)
  const common = { owner, repo, prefix, pathname, query }
  const route = routeWithin(area, rest, method)
  if (!route) return NOT_FOUND
  return { ...common, ...route }
}

/** @type {GitHubRouteError} */
const NOT_FOUND = { status: 404, message: 'Not Found' }

/**
 * @typedef {Omit<GitHubRoute, 'owner' | 'repo' | 'prefix' | 'pathname' | 'query'>} RoutePart
 */

/**
 * GitHub answers 404 for a method a path does not take, so a wrong method is no match either.
 *
 * @param {string} area
 * @param {string[]} rest
 * @param {string} method
 * @returns {RoutePart | undefined}
 */
function routeWithin(area, rest, method) {
  if (area === 'compare' && rest.length > 0 && method === 'GET') {
    // An unencoded slash inside a branch name splits it; the whole remainder is `base...head`.
    const basehead = rest.join('/')
    const [base, head] = basehead.includes('...')
      ? splitOnce(basehead, '...')
      : splitOnce(basehead, '..')
    if (!base || !head) return undefined
    return { kind: 'compare', method: 'GET', base, head }
  }
  if (area === 'commits' && method === 'GET') {
    if (rest.length === 2 && rest[1] === 'pulls' && rest[0]) {
      return { kind: 'commitPulls', method: 'GET', ref: rest[0] }
    }
    const ref = rest.join('/')
    if (ref === '' || rest.includes('')) return undefined
    return { kind: 'commit', method: 'GET', ref }
  }
  const [first, second, ...more] = rest
  if (more.length > 0 || first === undefined || second === undefined) return undefined
  if (area === 'pulls' && second === 'files' && isNumber(first) && method === 'GET') {
    return { kind: 'pullFiles', method: 'GET', number: Number(first) }
  }
  if (area !== 'issues') return undefined
  if (second === 'comments' && isNumber(first)) {
    if (method === 'GET') return { kind: 'listComments', method: 'GET', number: Number(first) }
    if (method === 'POST') return { kind: 'createComment', method: 'POST', number: Number(first) }
  }
  if (first === 'comments' && isNumber(second)) {
    if (method === 'GET') return { kind: 'getComment', method: 'GET', commentId: Number(second) }
    if (method === 'PATCH') {
      return { kind: 'updateComment', method: 'PATCH', commentId: Number(second) }
    }
  }
  return undefined
}

/**
 * @param {string} text
 * @returns {boolean}
 */
function isNumber(text) {
  return /^[1-9]\d{0,15}$/.test(text)
}

/**
 * @param {string} text
 * @param {string} separator
 * @returns {[string, string] | [string]}
 */
function splitOnce(text, separator) {
  const at = text.indexOf(separator)
  return at === -1 ? [text] : [text.slice(0, at), text.slice(at + separator.length)]
}
