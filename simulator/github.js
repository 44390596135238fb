// @ts-check
import { docsOf, GENERAL_DOCS } from './github-render.js'
import { fail } from './github-routes.js'
import { answer, isObject, JSON_TYPE, parseJson } from './http.js'

/**
 * @typedef {import('node:http').IncomingHttpHeaders} IncomingHttpHeaders
 * @typedef {import('./github-routes.js').GitHubRoute} GitHubRoute
 * @typedef {import('./github-data.js').GitHubSettings} GitHubSettings
 */

/**
 * What tests read of the fake GitHub. A request's `token` is the label of the token it carried
 * (its key in the `tokens` knob, `token` for the `token` knob, null for neither: any token
 * accepted, or refused), never the token; `status` is null for a reset or an answer never sent.
 * A comment's `history` is every body it had, oldest first; `token` of a comment or status is
 * the label of the token that wrote it, `user` and `creator` its account.
 *
 * @typedef {{ kind: import('./github-routes.js').GitHubRouteKind, method: string, path: string,
 *   repository: string | null, token: string | null, status: number | null }} GitHubRecord
 * @typedef {{ id: number, owner: string, repo: string, issueNumber: number, body: string,
 *   user: string, createdAt: string, updatedAt: string, history: string[],
 *   token: string | null }} CommentRecord
 * @typedef {{ id: number, owner: string, repo: string, sha: string, context: string,
 *   state: 'pending' | 'success' | 'failure' | 'error', description: string | null,
 *   targetUrl: string | null, creator: string, createdAt: string, token: string | null }}
 *   StatusRecord
 * @typedef {{ owner: string, repo: string, commentId: number, content: string, user: string,
 *   at: string }} ReactionRecord
 */

/**
 * What a route's `handle` is given: the request's `body` (checked; `{}` for a read), the token's
 * account and label, the clock `at` as GitHub writes times, and `self`, the request's URL without
 * its query; and what it gives back.
 *
 * @typedef {{ route: GitHubRoute, body: Record<string, unknown>, settings: GitHubSettings,
 *   identity: { label: string | null, user: string }, where: import('./github-data.js').Where,
 *   at: string, self: string, state: ReturnType<typeof createState> }} Call
 * @typedef {{ status: number, value: unknown, headers?: Record<string, string>, error?: boolean }}
 *   Reply
 */

/** What the fake GitHub holds: written through it, or seeded from the knobs. */
function createState() {
  return {
    /** @type {CommentRecord[]} */
    comments: [],
    /** @type {StatusRecord[]} */
    statuses: [],
    /** @type {ReactionRecord[]} */
    reactions: [],
    /** @type {Map<string, import('./github-data.js').PullChange>} by `owner/name#n`, lower case */
    pulls: new Map(),
    /** @type {Set<string>} the threads filled from the `comments` knob */
    seeded: new Set(),
    nextCommentId: 2_000_000_001,
    nextStatusId: 30_000_000_001
  }
}

/**
 * The stateful side of the fake GitHub: what was written through it, every request it received
 * with the label of its token, and the rate-limit headers (shown, never enforced). What each
 * route does is its entry in `github-routes.js`.
 *
 * @param {{ now: () => number }} options
 */
export function createGitHub({ now }) {
  const state = createState()
  /** @type {GitHubRecord[]} */
  const requests = []
  let [windowStart, used] = [now(), 0]

  /** @param {Reply} reply @param {string} docs where an error points */
  const send = ({ status, value, headers, error }, docs) => {
    if (now() - windowStart >= 3_600_000) [windowStart, used] = [now(), 0]
    const body = error ? { ...Object(value), documentation_url: docs, status: `${status}` } : value
    return {
      ...answer(status, JSON.stringify(body), {
        'content-type': JSON_TYPE,
        'x-github-api-version-selected': '2022-11-28',
        'x-github-media-type': 'github.v3; format=json',
        'x-ratelimit-limit': '1000',
        'x-ratelimit-remaining': String(Math.max(0, 1000 - used)),
        'x-ratelimit-reset': String(Math.floor((windowStart + 3_600_000) / 1000)),
        'x-ratelimit-used': String(used),
        'x-ratelimit-resource': 'core',
        ...headers
      }),
      github: true
    }
  }

  /**
   * Who a token is, or GitHub's message when it may not pass.
   *
   * @param {IncomingHttpHeaders} headers @param {GitHubSettings} settings
   * @returns {import('./github-data.js').GitHubToken & { label: string | null } | string}
   */
  const authenticate = ({ authorization = '' }, settings) => {
    if (authorization.trim() === '') return 'Requires authentication'
    const token = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(authorization)?.[1]
    const label = Object.keys(settings.tokens).find((l) => settings.tokens[l]?.token === token)
    const known = settings.tokens[label ?? '']
    if (known) return { ...known, label: label ?? null }
    const anyone = settings.token === null && Object.keys(settings.tokens).length === 0
    if (token === undefined || (!anyone && token !== settings.token)) return 'Bad credentials'
    const everywhere = { token, user: settings.user, repos: null, readOnly: [] }
    return { ...everywhere, label: anyone ? null : 'token' }
  }

  /**
   * Records a request before it is answered, faults included; `status` is filled in when sent.
   *
   * @param {GitHubRoute} route @param {string} method @param {string} path
   * @param {IncomingHttpHeaders} headers @param {GitHubSettings} settings
   */
  const receive = (route, method, path, headers, settings) => {
    const identity = authenticate(headers, settings)
    const token = typeof identity === 'string' ? null : identity.label
    const repository = route.owner === '' ? null : `${route.owner}/${route.repo}`
    /** @type {GitHubRecord} */
    const record = { kind: route.kind, method, path, repository, token, status: null }
    requests.push(record)
    return record
  }

  /**
   * Answers a request that reached its route: the token, its reach (a repository it cannot see
   * does not exist for it; one it may only read refuses writes), the body, then the route.
   *
   * @param {GitHubRoute} route @param {GitHubSettings} settings
   * @param {{ headers: IncomingHttpHeaders, body: string, origin: string }} request
   */
  const handle = (route, request, settings) => {
    const docs = route.kind === 'graphql' ? 'https://docs.github.com/graphql' : docsOf(route.kind)
    const identity = authenticate(request.headers, settings)
    if (typeof identity === 'string') return send(fail(401, identity), GENERAL_DOCS)
    used += 1
    const fullName = `${route.owner}/${route.repo}`.toLowerCase()
    const listed = (/** @type {string[]} */ list) => list.some((r) => r.toLowerCase() === fullName)
    if (identity.repos !== null && route.owner !== '' && !listed(identity.repos)) {
      if (!listed(identity.readOnly)) return send(fail(404, 'Not Found'), docs)
      if (route.row.method !== 'GET') {
        const holder = identity.user.endsWith('[bot]') ? 'integration' : 'personal access token'
        return send(fail(403, `Resource not accessible by ${holder}`), docs)
      }
    }
    const body = route.row.method === 'GET' ? {} : parseJson(request.body)
    const refused = checkBody(route.row, body)
    if (refused) return send(refused, docs)
    const { owner, repo, prefix, pathname } = route
    /** @type {Call} */
    const call = {
      route,
      body: /** @type {Record<string, unknown>} */ (body),
      settings,
      identity,
      where: { api: `${request.origin}${prefix}`, server: settings.serverUrl, owner, repo },
      at: new Date(now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      self: `${request.origin}${pathname}`,
      state
    }
    return send(route.row.handle(call), docs)
  }

  return {
    /** Every comment the fake GitHub holds, in the order they came to be. */
    comments: state.comments,
    /** Every commit status written through it, oldest first. */
    statuses: state.statuses,
    /** Every reaction left on a comment through it, oldest first. */
    reactions: state.reactions,
    /** What was written to pull requests (state, labels, reviewers), by `owner/name#number`. */
    pulls: state.pulls,
    /** Every request it received, with the label of its token. */
    requests,
    /**
     * Deletes a comment, as a person may on GitHub between two runs: it is listed no more, and
     * updating it answers 404.
     *
     * @param {number} id @returns {boolean} whether there was such a comment
     */
    deleteComment: (id) => {
      const at = state.comments.findIndex((comment) => comment.id === id)
      if (at !== -1) state.comments.splice(at, 1)
      return at !== -1
    },
    receive,
    handle,
    /** An answer in GitHub's error shape, for paths the simulator does not play. */
    error: (/** @type {number} */ status, /** @type {string} */ message) =>
      send(fail(status, message), GENERAL_DOCS)
  }
}

/**
 * Checks a request body as GitHub does before a route runs: JSON, an object, its required fields
 * there and each field of its type.
 *
 * @param {import('./github-routes.js').Row} row
 * @param {unknown} body the parsed body; undefined when it was not JSON
 */
function checkBody(row, body) {
  if (body === undefined) return fail(400, 'Problems parsing JSON')
  if (!isObject(body)) return fail(422, 'Invalid request.\n\nThe body must be an object.')
  const missing = row.required?.find((field) => body[field] === undefined)
  if (missing) return fail(422, `Invalid request.\n\n"${missing}" wasn't supplied.`)
  for (const [field, type] of Object.entries(row.body ?? {})) {
    const value = body[field]
    if (value === undefined || (value === null && !row.required?.includes(field))) continue
    const wrong =
      typeof type !== 'string'
        ? !type.includes(/** @type {string} */ (value)) &&
          `is not a member of ${JSON.stringify(type)}`
        : type === 'string'
          ? typeof value !== 'string' && 'is not a string'
          : !(Array.isArray(value) && value.every((item) => typeof item === 'string')) &&
            'is not an array of strings'
    if (wrong) {
      const message = `For 'properties/${field}', ${JSON.stringify(value)} ${wrong}.`
      return fail(422, `Invalid request.\n\n${message}`)
    }
  }
  return undefined
}
