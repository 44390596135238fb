// @ts-check
import { branchCommitData, byNumber, checksOn, commitData, comparisonData } from './github-data.js'
import { isMissing, pullData, resolveSha, roleOf } from './github-data.js'
import { actorNode, selectionOf, viewerNode } from './github-data.js'
import { renderComment, renderCommit, renderComparison, renderFile } from './github-render.js'
import { renderLabel, renderPull, renderStatus } from './github-render.js'
import { renderCombinedStatus, renderPermission, renderReaction } from './github-render.js'
import { renderCheckRuns, renderRepository } from './github-render.js'
import { resolveDotSegments } from './routes.js'

/**
 * A route: its method, its path as GitHub's REST description names it, the fields its body may
 * have (each a string, strings, or one of the strings listed), checked before `handle` runs;
 * `readBack` marks a read the action never makes, played so a person can see what a run wrote.
 *
 * @typedef {import('./github.js').Call} Call
 * @typedef {import('./github.js').Reply} Reply
 * @typedef {{ method: 'GET' | 'POST' | 'PATCH', path: string, handle: (c: Call) => Reply,
 *   body?: Record<string, 'string' | 'strings' | readonly string[]>, required?: string[],
 *   readBack?: true }} Row
 */

/** GitHub's caps, in characters: a comment body, a commit status description. */
const MAX = { comment: 65536, description: 140 }
const noCommit = (/** @type {string} */ ref) => fail(422, `No commit found for SHA: ${ref}`)

/**
 * Every GitHub route the simulator plays, and only those the action calls (and the `readBack`
 * reads docs/try-it.md gives for checking what a run wrote), by kind: its method,
 * its path as GitHub's REST description names it (so `scripts/github-examples.js` finds its
 * example answer, and a test its schemas), its body's fields and what it does. Adding a route is
 * one entry here, then `node scripts/github-examples.js`. A `{basehead}` or `{ref}` that ends a
 * path takes the rest of it, slashes included, as a branch name does on GitHub; earlier entries
 * win.
 */
export const GITHUB_ROUTES = /** @satisfies {Record<string, Row>} */ ({
  compare: {
    method: 'GET',
    path: '/repos/{owner}/{repo}/compare/{basehead}',
    handle(c) {
      const { route, settings, where } = c
      const { base, head, query } = route
      if (isMissing(settings, where, base) || isMissing(settings, where, head)) {
        return fail(404, 'Not Found')
      }
      const data = comparisonData(settings, where, base, head)
      // As GitHub's description says: unpaged, the newest 250 commits; files on the first page.
      const paged = query.has('page') || query.has('per_page')
      const page = paged
        ? paginate(data.commits, c, 30, 100)
        : { items: data.commits.slice(-250), number: 1, headers: {} }
      const files = page.number === 1 ? data.files.slice(0, 300) : undefined
      const total = data.commits.length
      const body = { ...data, commits: page.items, files, baseRef: base, headRef: head, total }
      return reply(200, renderComparison(body, where), page.headers)
    }
  },
  commitPulls: {
    method: 'GET',
    path: '/repos/{owner}/{repo}/commits/{commit_sha}/pulls',
    handle(c) {
      const { settings, where, route } = c
      if (isMissing(settings, where, route.ref)) return noCommit(route.ref)
      const sha = resolveSha(settings, where, route.ref)
      const numbers = Object.entries(settings.commitPulls)
        .filter(([key]) => resolveSha(settings, where, key) === sha)
        .flatMap(([, list]) => list)
      const page = paginate(numbers, c, 30, 100)
      const pulls = page.items.map((n) => renderPull(pull(c, n), where, 'pull-request-simple'))
      return reply(200, pulls, page.headers)
    }
  },
  listStatuses: {
    method: 'GET',
    path: '/repos/{owner}/{repo}/commits/{ref}/statuses',
    readBack: true,
    handle(c) {
      // Newest first, every status written, as GitHub lists them; an unknown ref has none.
      const page = paginate(statusesOf(c), c, 30, 100)
      const statuses = page.items.map((s) => renderStatus(s, c.where))
      return reply(200, statuses, page.headers)
    }
  },
  combinedStatus: {
    method: 'GET',
    path: '/repos/{owner}/{repo}/commits/{ref}/status',
    handle(c) {
      if (isMissing(c.settings, c.where, c.route.ref)) {
        return fail(404, `No commit found for SHA: ${c.route.ref}`)
      }
      // The latest status of each context (written through the simulator, then those the
      // `checks` knob puts there), and one state for them all.
      const latest = [...statusesOf(c), ...seededStatuses(c)].filter(
        (s, i, all) => all.findIndex((t) => t.context === s.context) === i
      )
      const page = paginate(latest, c, 30, 100)
      const sha = resolveSha(c.settings, c.where, c.route.ref)
      const combined = { sha, statuses: page.items, total: latest.length, state: combine(latest) }
      return reply(200, renderCombinedStatus(combined, c.where), page.headers)
    }
  },
  checkRuns: {
    method: 'GET',
    path: '/repos/{owner}/{repo}/commits/{ref}/check-runs',
    handle(c) {
      if (isMissing(c.settings, c.where, c.route.ref)) {
        return fail(404, `No commit found for SHA: ${c.route.ref}`)
      }
      const sha = resolveSha(c.settings, c.where, c.route.ref)
      const runs = checksOn(c.settings, c.where, sha).runs ?? []
      const page = paginate(runs, c, 30, 100)
      return reply(200, renderCheckRuns(sha, page.items, runs.length, c.where), page.headers)
    }
  },
  commit: {
    method: 'GET',
    path: '/repos/{owner}/{repo}/commits/{ref}',
    handle(c) {
      if (isMissing(c.settings, c.where, c.route.ref)) return noCommit(c.route.ref)
      const commit = commitData(c.settings, c.where, c.route.ref)
      const page = paginate(commit.files.slice(0, 3000), c, 300, 300)
      return reply(200, renderCommit(commit, c.where, page.items), page.headers)
    }
  },
  listCommits: {
    method: 'GET',
    path: '/repos/{owner}/{repo}/commits',
    handle(c) {
      // `sha` names the branch (the default branch when absent); `since` keeps the commits
      // dated at or after it, as GitHub's description says. A branch the knob does not list has
      // no commits to show.
      const { query } = c.route
      const repo = c.settings.repos[`${c.route.owner}/${c.route.repo}`]
      const branch = query.get('sha') ?? repo?.default_branch ?? 'main'
      const since = Date.parse(query.get('since') ?? '')
      const commits = branchCommitData(c.settings, c.where, branch, c.at).filter(
        (commit) => !Number.isFinite(since) || Date.parse(commit.committer.date) >= since
      )
      const page = paginate(commits, c, 30, 100)
      return reply(
        200,
        page.items.map((commit) => renderCommit(commit, c.where)),
        page.headers
      )
    }
  },
  getRepo: {
    method: 'GET',
    path: '/repos/{owner}/{repo}',
    handle(c) {
      const knob = Object.entries(c.settings.repos).find(([name]) =>
        same(name, `${c.route.owner}/${c.route.repo}`)
      )?.[1]
      return reply(200, renderRepository(c.where, knob?.default_branch ?? 'main', knob?.private))
    }
  },
  createStatus: {
    method: 'POST',
    path: '/repos/{owner}/{repo}/statuses/{sha}',
    body: {
      state: ['error', 'failure', 'pending', 'success'],
      target_url: 'string',
      description: 'string',
      context: 'string'
    },
    required: ['state'],
    handle(c) {
      const { state, context = 'default', description = null, target_url = null } = c.body
      if (typeof description === 'string' && [...description].length > MAX.description) {
        return tooLong('Status', 'description', MAX.description)
      }
      if (isMissing(c.settings, c.where, c.route.ref)) return noCommit(c.route.ref)
      const status = {
        id: c.state.nextStatusId++,
        owner: c.route.owner,
        repo: c.route.repo,
        sha: resolveSha(c.settings, c.where, c.route.ref),
        state: /** @type {'error' | 'failure' | 'pending' | 'success'} */ (state),
        context: String(context),
        description: /** @type {string | null} */ (description),
        targetUrl: /** @type {string | null} */ (target_url),
        creator: c.identity.user,
        createdAt: c.at,
        token: c.identity.label
      }
      c.state.statuses.push(status)
      return reply(201, renderStatus(status, c.where), { location: c.self })
    }
  },
  getPull: {
    method: 'GET',
    path: '/repos/{owner}/{repo}/pulls/{pull_number}',
    handle: (c) => reply(200, wholePull(c))
  },
  updatePull: {
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/pulls/{pull_number}',
    body: { title: 'string', body: 'string', state: ['open', 'closed'] },
    handle(c) {
      const { state, title, body } = c.body
      const before = pull(c)
      if (state === 'open' && before.merged_at !== null) {
        const why = 'The pull request cannot be reopened because it is merged.'
        return invalid('PullRequest', 'state', `state cannot be changed. ${why}`)
      }
      const change = changeOf(c)
      if (state !== undefined && state !== before.state) {
        change.state = state === 'open' ? 'open' : 'closed'
        if (state === 'closed') change.closedAt = c.at
      }
      if (typeof title === 'string') change.title = title
      if (body !== undefined) change.body = /** @type {string | null} */ (body)
      return reply(200, wholePull(c))
    }
  },
  pullFiles: {
    method: 'GET',
    path: '/repos/{owner}/{repo}/pulls/{pull_number}/files',
    handle(c) {
      const data = pull(c)
      const page = paginate(data.files.slice(0, 3000), c, 30, 100)
      const files = page.items.map((file) => renderFile(file, c.where, data.head.sha))
      return reply(200, files, page.headers)
    }
  },
  requestReviewers: {
    method: 'POST',
    path: '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
    body: { reviewers: 'strings', team_reviewers: 'strings' },
    handle(c) {
      const { reviewers = [], team_reviewers: teams = [] } =
        /** @type {{ reviewers?: string[], team_reviewers?: string[] }} */ (c.body)
      if (c.body.reviewers === undefined && c.body.team_reviewers === undefined) {
        return fail(422, 'Invalid request.\n\n"reviewers" or "team_reviewers" must be supplied.')
      }
      const data = pull(c)
      if (reviewers.some((login) => same(login, data.user))) {
        return fail(422, 'Review cannot be requested from pull request author.')
      }
      const strangers = c.settings.nonCollaborators
      if (
        reviewers.some((r) => strangers.some((s) => same(r, s))) ||
        teams.some((t) => t.includes('/'))
      ) {
        return fail(
          422,
          'Reviews may only be requested from collaborators. One or more of the users or teams ' +
            'you specified is not a collaborator of the ' +
            `${c.route.owner}/${c.route.repo} repository.`
        )
      }
      const change = changeOf(c)
      change.reviewers = union(data.reviewers, reviewers)
      change.teams = union(data.teams, teams)
      return reply(201, renderPull(pull(c), c.where, 'pull-request-simple'))
    }
  },
  listComments: {
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    handle(c) {
      const page = paginate(thread(c), c, 30, 100)
      const comments = page.items.map((comment) => renderComment(comment, c.where))
      return reply(200, comments, page.headers)
    }
  },
  createComment: {
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    body: { body: 'string' },
    required: ['body'],
    handle(c) {
      const body = String(c.body.body)
      const refused = commentRefused(body)
      if (refused) return refused
      thread(c)
      const { user, label: token } = c.identity
      const rendered = renderComment(addComment(c, c.route.number, { body, user, token }), c.where)
      return reply(201, rendered, { location: rendered.url })
    }
  },
  getComment: {
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/comments/{comment_id}',
    handle(c) {
      seed(c)
      const { comments } = c.state
      const comment = comments.find((k) => k.id === c.route.commentId && sameRepo(k, c.where))
      // A comment that was deleted, or never was, is answered 404, as GitHub's description says.
      if (!comment) return fail(404, 'Not Found')
      return reply(200, renderComment(comment, c.where))
    }
  },
  updateComment: {
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/issues/comments/{comment_id}',
    body: { body: 'string' },
    required: ['body'],
    handle(c) {
      seed(c)
      const { comments } = c.state
      const comment = comments.find((k) => k.id === c.route.commentId && sameRepo(k, c.where))
      if (!comment) return fail(404, 'Not Found')
      const body = String(c.body.body)
      const refused = commentRefused(body)
      if (refused) return refused
      Object.assign(comment, { body, updatedAt: c.at, history: [...comment.history, body] })
      return reply(200, renderComment(comment, c.where))
    }
  },
  addLabels: {
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/{issue_number}/labels',
    body: { labels: 'strings' },
    required: ['labels'],
    handle(c) {
      const names = /** @type {string[]} */ (c.body.labels)
      if (names.length === 0 || names.some((name) => name.trim() === '')) {
        return fail(422, 'Invalid request.\n\nNo labels were given.')
      }
      const change = changeOf(c)
      change.labels = union(pull(c).labels, names)
      const labels = change.labels.map((name) => renderLabel(name, c.where))
      return reply(200, labels)
    }
  },
  permission: {
    method: 'GET',
    path: '/repos/{owner}/{repo}/collaborators/{username}/permission',
    handle(c) {
      // A person who is not a collaborator is answered 404, as GitHub does.
      const role = roleOf(c.settings, c.route.username)
      if (role === undefined) return fail(404, 'Not Found')
      return reply(200, renderPermission(c.route.username, role, c.where))
    }
  },
  react: {
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions',
    body: { content: ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'] },
    required: ['content'],
    handle(c) {
      const content = String(c.body.content)
      const on = { commentId: c.route.commentId, owner: c.where.owner, repo: c.where.repo }
      const known = c.state.reactions.find(
        (r) => sameRepo(r, c.where) && r.commentId === on.commentId && r.content === content
      )
      // 200 for a reaction already there, 201 for a new one (GitHub's documentation of the route).
      if (known) return reply(200, renderReaction(known, c.where))
      const reaction = { ...on, content, user: c.identity.user, at: c.at }
      c.state.reactions.push(reaction)
      return reply(201, renderReaction(reaction, c.where))
    }
  },
  graphql: {
    method: 'POST',
    path: '/graphql',
    body: { query: 'string' },
    handle(c) {
      // GraphQL answers 200 with `errors`; only the queries the action sends are played, with
      // the fields of an account they select, spelt as GitHub spells them (see `actorNode`).
      const query = String(c.body.query)
      const viewer = viewerNode(c.identity.user, selectionOf(query, 'viewer'))
      if (/\bhistory\s*\(/.test(query)) return history(c, query, viewer)
      if (/\bviewer\s*\{[^{}]*\}/.test(query)) return reply(200, { data: { viewer } })
      return reply(200, {
        errors: [{ message: 'Only the viewer and a commit history with statuses are played here.' }]
      })
    }
  }
})

/**
 * A request matched to its route: its parameters percent-decoded ('' or 0 where the path has
 * none), `prefix` `/api/v3` (`/api` for GraphQL) as on GitHub Enterprise Server, else ''.
 *
 * @typedef {keyof typeof GITHUB_ROUTES} GitHubRouteKind
 * @typedef {{ kind: GitHubRouteKind, row: Row, owner: string, repo: string, base: string,
 *   head: string, ref: string, username: string, number: number, commentId: number, prefix: string,
 *   pathname: string, query: URLSearchParams }} GitHubRoute
 * @typedef {{ status: 400 | 404, message: string }} GitHubRouteError
 */

/** Every kind, in the order of the table. */
export const GITHUB_ROUTE_KINDS = /** @type {GitHubRouteKind[]} */ (Object.keys(GITHUB_ROUTES))

/** What handlers call a parameter GitHub's description names otherwise; any `…sha` is `ref`. */
const NAMES = { pull_number: 'number', issue_number: 'number', comment_id: 'commentId' }

/**
 * A path template as a pattern with a group per parameter: `*_number` and `*_id` are numbers, a
 * `{basehead}` or `{ref}` that ends the path takes the rest of it.
 */
const PATTERNS = GITHUB_ROUTE_KINDS.map((kind) => {
  const pattern = GITHUB_ROUTES[kind].path.replace(/\{(\w+)\}(?=(\/|$))/g, (_, name, end) => {
    const group =
      /** @type {Record<string, string>} */ (NAMES)[name] ?? (/sha$/.test(name) ? 'ref' : name)
    if (/_(?:number|id)$/.test(name)) return `(?<${group}>[1-9]\\d{0,15})`
    if (name === 'basehead') return '(?<base>.+?)\\.\\.\\.?(?<head>.+)'
    return `(?<${group}>${name === 'ref' && end === '' ? '.+' : '[^/]+'})`
  })
  return { kind, row: GITHUB_ROUTES[kind], pattern: new RegExp(`^${pattern}$`) }
})

/**
 * Matches a raw request target against the table. Anything under `/repos/` and `/user` (or
 * `/api/v3/`, as GitHub Enterprise Server serves them) and `/graphql` (`/api/graphql`) is the
 * fake GitHub's: a path or method it does not play answers 404 there, as GitHub does. Every other
 * path is left to the Mintlify routes. Dot segments are resolved first, then each parameter is
 * percent-decoded, so `%2F` in a branch name is a slash of the name.
 *
 * @param {string} target @param {string} method
 * @returns {GitHubRoute | GitHubRouteError | undefined}
 */
export function matchGitHubRoute(target, method) {
  const [pathname = '', ...search] = target.split('?')
  const graphql = /^(?:\/api)?\/graphql$/.test(pathname)
  const prefix = graphql ? pathname.slice(0, -8) : /^\/api\/v3\//.test(pathname) ? '/api/v3' : ''
  const raw = pathname.slice(prefix.length)
  if (!graphql && !/^\/(?:repos|user)(?:\/|$)/.test(raw)) return undefined
  const segments = resolveDotSegments(raw.slice(1).split('/'))
  const path = `/${segments.join('/')}`
  const found = PATTERNS.find((p) => p.row.method === method && p.pattern.test(path))
  if (!found || segments.includes('')) return { status: 404, message: 'Not Found' }
  const params = {
    owner: '',
    repo: '',
    base: '',
    head: '',
    ref: '',
    username: '',
    number: '0',
    commentId: '0'
  }
  try {
    for (const [name, value] of Object.entries(found.pattern.exec(path)?.groups ?? {})) {
      Object.assign(params, { [name]: decodeURIComponent(value) })
    }
  } catch {
    return { status: 400, message: 'Malformed percent-encoding in the request path' }
  }
  const { kind, row } = found
  const query = new URLSearchParams(search.join('?'))
  const [number, commentId] = [Number(params.number), Number(params.commentId)]
  return { ...params, kind, row, prefix, pathname, query, number, commentId }
}

/** @type {(status: number, value: unknown, headers?: Record<string, string>) => Reply} */
const reply = (status, value, headers = {}) => ({ status, value, headers })

/**
 * An error in GitHub's shape; its documentation link and status are added when it is sent.
 *
 * @param {number} status @param {string} message
 * @param {Record<string, unknown>} [more] e.g. the `errors` of a validation failure
 * @returns {Reply}
 */
export function fail(status, message, more = {}) {
  return { status, value: { message, ...more }, error: true }
}

/** GitHub's 422 for a field it refuses once the body is read; `code` says why. */
function invalid(resource = '', field = '', message = '', code = 'custom') {
  const error = { resource, code, field, ...(message && { message }) }
  return fail(422, 'Validation Failed', { errors: [error] })
}

/** @param {string} resource @param {string} field @param {number} max GitHub's cap */
const tooLong = (resource, field, max) =>
  invalid(resource, field, `${field} is too long (maximum is ${max} characters)`)

/** GitHub's 422 for an empty comment or one over its cap. */
function commentRefused(/** @type {string} */ body) {
  if (body.trim() === '') return invalid('IssueComment', 'body', '', 'missing_field')
  return [...body].length > MAX.comment ? tooLong('IssueComment', 'body', MAX.comment) : undefined
}

/**
 * One page of a list as GitHub pages it: `per_page` (capped) and `page` from the query, and a
 * `Link` header naming the pages around it, in GitHub's order (prev, next, last, first).
 *
 * @template T
 * @param {T[]} items @param {Call} c
 * @param {number} perPage the default
 * @param {number} max
 */
function paginate(items, c, perPage, max) {
  const read = (/** @type {string} */ name) => {
    const value = Number(c.route.query.get(name))
    return Number.isInteger(value) && value > 0 ? value : undefined
  }
  const size = Math.min(max, read('per_page') ?? perPage)
  const number = read('page') ?? 1
  const last = Math.max(1, Math.ceil(items.length / size))
  /** @type {[number, string][]} */
  const pages = number > 1 ? [[Math.min(number - 1, last), 'prev']] : []
  if (number < last) pages.push([number + 1, 'next'], [last, 'last'])
  if (number > 1) pages.push([1, 'first'])
  const link = pages.map(([page, rel]) => {
    const query = new URLSearchParams(c.route.query)
    query.set('page', String(page))
    return `<${c.self}?${query.toString()}>; rel="${rel}"`
  })
  const headers = link.length > 0 ? { link: link.join(', ') } : undefined
  return { items: items.slice((number - 1) * size, number * size), number, headers }
}

/** The statuses written to the route's repository on the commit its ref names, newest first. */
const statusesOf = (/** @type {Call} */ c) => {
  const sha = resolveSha(c.settings, c.where, c.route.ref)
  return c.state.statuses.filter((s) => s.sha === sha && sameRepo(s, c.where)).reverse()
}

/** The statuses the `checks` knob puts on the route's commit, as status records. */
const seededStatuses = (/** @type {Call} */ c) => {
  const sha = resolveSha(c.settings, c.where, c.route.ref)
  return (checksOn(c.settings, c.where, sha).statuses ?? []).map((s, i) => ({
    id: 40_000_000_001 + i,
    owner: c.route.owner,
    repo: c.route.repo,
    sha,
    state: s.state,
    context: s.context,
    description: s.description ?? null,
    targetUrl: s.target_url ?? null,
    creator: 'octocat',
    createdAt: c.at,
    token: null
  }))
}

/**
 * GitHub's combined state: `failure` when a context reports `error` or `failure`, `pending` when
 * there is none or one is `pending`, else `success`.
 *
 * @param {{ state: string }[]} latest @returns {'failure' | 'pending' | 'success'}
 */
export function combine(latest) {
  if (latest.some((s) => s.state === 'error' || s.state === 'failure')) return 'failure'
  return latest.length === 0 || latest.some((s) => s.state === 'pending') ? 'pending' : 'success'
}

/** @param {{ owner: string, repo: string }} a @param {{ owner: string, repo: string }} b */
const sameRepo = (a, b) =>
  `${a.owner}/${a.repo}`.toLowerCase() === `${b.owner}/${b.repo}`.toLowerCase()

/** `had`, then what `more` adds, compared without case as GitHub does. */
const union = (/** @type {string[]} */ had, /** @type {string[]} */ more) =>
  more.reduce((out, item) => (out.some((k) => same(k, item)) ? out : [...out, item]), had)

const same = (/** @type {string} */ a, /** @type {string} */ b) =>
  a.toLowerCase() === b.toLowerCase()

/** @param {Call} c @param {number} [number] */
const key = (c, number = c.route.number) =>
  `${c.route.owner}/${c.route.repo}#${number}`.toLowerCase()

/** A pull request as the knobs describe it, changed since by what was written to it. */
const pull = (/** @type {Call} */ c, number = c.route.number) =>
  pullData(c.settings, c.where, number, c.state.pulls.get(key(c, number)))

/** @param {Call} c */
const wholePull = (c) => renderPull(pull(c), c.where, 'pull-request', thread(c).length)

/**
 * GraphQL's `repository.object(expression).history(first, after)` with each commit's status
 * contexts: the `history` knob walked back from the commit asked for, a page of at most 100 (more
 * is refused, as GitHub refuses it) after the cursor `after`, and the statuses written through
 * the simulator (the latest of each context, as GitHub keeps them), each with the account that
 * wrote it as a GraphQL `Actor` (an App's without `[bot]`). A cursor is `<sha> <index>`, as
 * GitHub's history cursors read once decoded; the action never reads one.
 *
 * @param {Call} c @param {string} query @param {Record<string, unknown>} viewer
 */
function history(c, query, viewer) {
  const variables = /** @type {Record<string, unknown>} */ (c.body.variables ?? {})
  const text = (/** @type {unknown} */ value) => (typeof value === 'string' ? value : '')
  const owner = text(variables.owner)
  const repo = text(variables.repo)
  const sha = text(variables.sha)
  const first = Number(variables.first ?? 50)
  if (first > 100) {
    const message = `Requesting ${first} records on the \`history\` connection exceeds the \`first\` limit of 100 records.`
    return reply(200, { data: null, errors: [{ type: 'EXCESSIVE_PAGINATION', message }] })
  }
  const known = c.settings.history
  const at = known.indexOf(sha)
  const shas = at < 0 ? [sha] : known.slice(0, at + 1).reverse()
  const after = text(variables.after)
  const cursor = /^([0-9a-f]{40}) (\d+)$/.exec(after)
  if (after !== '' && (!cursor || cursor[1] !== shas[0])) {
    const message = `\`${after}\` does not appear to be a valid cursor.`
    return reply(200, { data: null, errors: [{ type: 'INVALID_CURSOR_ARGUMENTS', message }] })
  }
  const from = cursor ? Number(cursor[2]) + 1 : 0
  const page = shas.slice(from, from + Math.max(0, first))
  const creator = selectionOf(query, 'creator')
  const where = { owner, repo }
  const nodes = page.map((oid) => {
    // As on GitHub, a commit's status holds the latest status of each context only.
    const contexts = c.state.statuses
      .filter((s) => s.sha === oid && sameRepo(s, where))
      .reverse()
      .filter((s, i, all) => all.findIndex((t) => t.context === s.context) === i)
      .map((s) => ({
        context: s.context,
        description: s.description,
        state: s.state.toUpperCase(),
        targetUrl: s.targetUrl,
        creator: actorNode(s.creator, creator)
      }))
    return { oid, status: contexts.length > 0 ? { contexts } : null }
  })
  const end = from + page.length
  const pageInfo = {
    hasNextPage: end < shas.length,
    endCursor: page.length > 0 ? `${shas[0]} ${end - 1}` : null
  }
  const repository = { object: { history: { pageInfo, nodes } } }
  return reply(200, { data: { viewer, repository } })
}

/** What was written to the route's pull request, made on first use and dated now. */
function changeOf(/** @type {Call} */ c) {
  const change = { ...c.state.pulls.get(key(c)), updatedAt: c.at }
  c.state.pulls.set(key(c), change)
  return change
}

/**
 * Fills the threads of the route's repository from the `comments` knob, each the first time; with
 * `only`, that thread alone (reading a pull request fills no other).
 *
 * @param {Call} c @param {number} [only]
 */
function seed(c, only) {
  const { owner, repo } = c.route
  for (const name of Object.keys(c.settings.comments)) {
    const [, knob = `${owner}/${repo}`, number = 0] = /^(?:(.+)#)?(\d+)$/.exec(name) ?? []
    if (only !== undefined && +number !== only) continue
    if (!same(knob, `${owner}/${repo}`) || c.state.seeded.has(key(c, +number))) continue
    c.state.seeded.add(key(c, +number))
    const inputs = byNumber(c.settings.comments, c.where, +number) ?? []
    for (const { created_at: createdAt, updated_at: updatedAt, ...input } of inputs) {
      addComment(c, +number, { ...input, createdAt, updatedAt })
    }
  }
}

/**
 * @param {Call} c @param {number} issueNumber
 * @param {{ body: string, user?: string, id?: number, createdAt?: string, updatedAt?: string,
 *   token?: string | null }} comment
 */
function addComment(c, issueNumber, { body, user = c.route.owner, token = null, ...more }) {
  const { id = c.state.nextCommentId++, createdAt = c.at, updatedAt = createdAt } = more
  const { owner, repo } = c.route
  const fields = { id, owner, repo, issueNumber, body, user, createdAt, updatedAt, token }
  const comment = { ...fields, history: [body] }
  c.state.comments.push(comment)
  return comment
}

/** The comments of the route's issue or pull request, oldest first. */
function thread(/** @type {Call} */ c) {
  seed(c, c.route.number)
  return c.state.comments
    .filter((comment) => comment.issueNumber === c.route.number && sameRepo(comment, c.where))
    .sort((a, b) => a.id - b.id)
}
