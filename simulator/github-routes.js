// @ts-check
import { resolveDotSegments } from './routes.js'

/**
 * Every GitHub route the simulator plays, in one table. `path` is the route as GitHub's REST
 * description names it, so `scripts/github-examples.js` finds the example answer for each in
 * `@octokit/openapi` (`example` picks one when the description offers several); GraphQL is not in
 * that description and has no example. Adding a route is one row here, its handler in
 * `github.js`, and `node scripts/github-examples.js` to write its example into
 * `github-examples.json`.
 *
 * A `{basehead}` or `{ref}` that ends a path takes the rest of it, slashes included, as a branch
 * name with an unencoded slash does on GitHub; earlier rows win.
 */
export const GITHUB_ROUTES = /** @type {const} */ ([
  { kind: 'compare', method: 'GET', path: '/repos/{owner}/{repo}/compare/{basehead}' },
  { kind: 'commitPulls', method: 'GET', path: '/repos/{owner}/{repo}/commits/{commit_sha}/pulls' },
  { kind: 'listStatuses', method: 'GET', path: '/repos/{owner}/{repo}/commits/{ref}/statuses' },
  { kind: 'combinedStatus', method: 'GET', path: '/repos/{owner}/{repo}/commits/{ref}/status' },
  { kind: 'listCheckRuns', method: 'GET', path: '/repos/{owner}/{repo}/commits/{ref}/check-runs' },
  { kind: 'commit', method: 'GET', path: '/repos/{owner}/{repo}/commits/{ref}' },
  { kind: 'createStatus', method: 'POST', path: '/repos/{owner}/{repo}/statuses/{sha}' },
  {
    kind: 'createCheckRun',
    method: 'POST',
    path: '/repos/{owner}/{repo}/check-runs',
    example: 'example-of-in-progress-conclusion'
  },
  { kind: 'getCheckRun', method: 'GET', path: '/repos/{owner}/{repo}/check-runs/{check_run_id}' },
  {
    kind: 'updateCheckRun',
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/check-runs/{check_run_id}'
  },
  { kind: 'getPull', method: 'GET', path: '/repos/{owner}/{repo}/pulls/{pull_number}' },
  { kind: 'updatePull', method: 'PATCH', path: '/repos/{owner}/{repo}/pulls/{pull_number}' },
  { kind: 'pullFiles', method: 'GET', path: '/repos/{owner}/{repo}/pulls/{pull_number}/files' },
  {
    kind: 'listRequestedReviewers',
    method: 'GET',
    path: '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers'
  },
  {
    kind: 'requestReviewers',
    method: 'POST',
    path: '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers'
  },
  {
    kind: 'listComments',
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/{issue_number}/comments'
  },
  {
    kind: 'createComment',
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/{issue_number}/comments'
  },
  { kind: 'getComment', method: 'GET', path: '/repos/{owner}/{repo}/issues/comments/{comment_id}' },
  {
    kind: 'updateComment',
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/issues/comments/{comment_id}'
  },
  { kind: 'addLabels', method: 'POST', path: '/repos/{owner}/{repo}/issues/{issue_number}/labels' },
  {
    kind: 'getUser',
    method: 'GET',
    path: '/user',
    example: 'response-with-public-profile-information'
  },
  { kind: 'graphql', method: 'POST', path: '/graphql' }
])

/**
 * @typedef {typeof GITHUB_ROUTES[number]} GitHubRouteRow
 * @typedef {GitHubRouteRow['kind']} GitHubRouteKind
 * @typedef {object} GitHubRoute
 * @property {GitHubRouteKind} kind
 * @property {'GET' | 'POST' | 'PATCH'} method the one method the route answers
 * @property {string} owner percent-decoded; empty for routes outside a repository
 * @property {string} repo percent-decoded; empty for routes outside a repository
 * @property {string} prefix `/api/v3` when the request came that way (GitHub Enterprise Server's
 *   layout), otherwise empty
 * @property {string} pathname the path as received, without the query
 * @property {URLSearchParams} query
 * @property {string} [base] compare: the base ref or sha
 * @property {string} [head] compare: the head ref or sha
 * @property {string} [ref] the ref or sha of the commit routes and `statuses/{sha}`
 * @property {number} [number] the pull request or issue number
 * @property {number} [commentId] getComment, updateComment
 * @property {number} [checkRunId] getCheckRun, updateCheckRun
 * @typedef {{ status: 400 | 404, message: string }} GitHubRouteError
 */

/** Every kind, in the order of the table. */
export const GITHUB_ROUTE_KINDS = GITHUB_ROUTES.map((route) => route.kind)

const ENTERPRISE_PREFIX = '/api/v3'
/** GitHub Enterprise Server serves GraphQL beside its REST prefix, not under it. */
const ENTERPRISE_GRAPHQL = '/api/graphql'

/**
 * Matches a raw request target against the GitHub routes the simulator plays. Anything under
 * `/repos/` and `/user` (or under `/api/v3/`, as GitHub Enterprise Server serves them), and
 * `/graphql` (`/api/graphql`), belongs to the fake GitHub; every other path is left to the
 * Mintlify routes.
 *
 * @param {string} target
 * @param {string} method
 * @returns {GitHubRoute | GitHubRouteError | undefined} undefined when the path is not GitHub's
 */
export function matchGitHubRoute(target, method) {
  const [rawPath = '', search = ''] = splitOnce(target, '?')
  const query = new URLSearchParams(search)
  if (rawPath === '/graphql' || rawPath === ENTERPRISE_GRAPHQL) {
    if (method !== 'POST') return NOT_FOUND
    const prefix = rawPath === ENTERPRISE_GRAPHQL ? '/api' : ''
    return {
      kind: 'graphql',
      method: 'POST',
      owner: '',
      repo: '',
      prefix,
      pathname: rawPath,
      query
    }
  }
  const prefix = rawPath.startsWith(`${ENTERPRISE_PREFIX}/`) ? ENTERPRISE_PREFIX : ''
  const pathname = rawPath.slice(prefix.length)
  if (!pathname.startsWith('/repos/') && pathname !== '/user') return undefined

  /** @type {string[]} */
  const segments = []
  try {
    for (const raw of resolveDotSegments(pathname.slice(1).split('/'))) {
      segments.push(decodeURIComponent(raw))
    }
  } catch {
    return { status: 400, message: 'Malformed percent-encoding in the request path' }
  }
  // GitHub answers 404 for a method a path does not take, so a wrong method is no match either.
  for (const row of GITHUB_ROUTES) {
    if (row.method !== method) continue
    const params = matchTemplate(row.path, segments)
    if (!params) continue
    const route = fromParams(row, params)
    if (route) return { ...route, prefix, pathname: rawPath, query }
  }
  return NOT_FOUND
}

/** @type {GitHubRouteError} */
const NOT_FOUND = { status: 404, message: 'Not Found' }

/**
 * @param {string} template e.g. `/repos/{owner}/{repo}/commits/{ref}`
 * @param {string[]} segments decoded segments of the request path
 * @returns {Record<string, string> | undefined}
 */
function matchTemplate(template, segments) {
  const parts = template.slice(1).split('/')
  /** @type {Record<string, string>} */
  const params = {}
  for (const [index, part] of parts.entries()) {
    const name = /^\{(\w+)\}$/.exec(part)?.[1]
    const segment = segments[index]
    if (segment === undefined || segment === '') return undefined
    if (name === undefined) {
      if (segment !== part) return undefined
      continue
    }
    const rest = segments.slice(index)
    if (index === parts.length - 1 && (name === 'basehead' || name === 'ref')) {
      if (rest.includes('')) return undefined
      params[name] = rest.join('/')
      return params
    }
    params[name] = segment
  }
  return segments.length === parts.length ? params : undefined
}

/**
 * @param {GitHubRouteRow} row
 * @param {Record<string, string>} params
 * @returns {Omit<GitHubRoute, 'prefix' | 'pathname' | 'query'> | undefined}
 */
function fromParams(row, params) {
  /** @type {Omit<GitHubRoute, 'prefix' | 'pathname' | 'query'>} */
  const route = {
    kind: row.kind,
    method: row.method,
    owner: params.owner ?? '',
    repo: params.repo ?? ''
  }
  if (params.basehead !== undefined) {
    const basehead = params.basehead
    const [base, head] = basehead.includes('...')
      ? splitOnce(basehead, '...')
      : splitOnce(basehead, '..')
    if (!base || !head) return undefined
    route.base = base
    route.head = head
  }
  const ref = params.ref ?? params.commit_sha ?? params.sha
  if (ref !== undefined) route.ref = ref
  for (const [name, key] of /** @type {const} */ ([
    ['pull_number', 'number'],
    ['issue_number', 'number'],
    ['comment_id', 'commentId'],
    ['check_run_id', 'checkRunId']
  ])) {
    const value = params[name]
    if (value === undefined) continue
    if (!isNumber(value)) return undefined
    route[key] = Number(value)
  }
  return route
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
