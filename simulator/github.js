// @ts-check
import {
  CAP,
  commitData,
  comparisonData,
  isMissing,
  pullData,
  renderComment,
  renderCommit,
  renderComparison,
  renderFile,
  renderPull,
  resolveSha
} from './github-data.js'
import { answer, isObject, JSON_TYPE, parseJson } from './http.js'

/**
 * @typedef {import('node:http').IncomingHttpHeaders} IncomingHttpHeaders
 * @typedef {import('./http.js').Answer} Answer
 * @typedef {import('./github-routes.js').GitHubRoute} GitHubRoute
 * @typedef {import('./github-routes.js').GitHubRouteKind} GitHubRouteKind
 * @typedef {import('./github-data.js').GitHubSettings} GitHubSettings
 * @typedef {import('./github-data.js').CommentRecord} CommentRecord
 * @typedef {import('./github-data.js').Where} Where
 */

/**
 * @typedef {object} GitHubRequest
 * @property {IncomingHttpHeaders} headers
 * @property {string} body
 * @property {string} origin scheme, host and port the client reached the simulator at
 */

/** Where GitHub's error bodies point, per route. */
/** @type {Record<GitHubRouteKind, string>} */
const DOCS = {
  compare: 'https://docs.github.com/rest/commits/commits#compare-two-commits',
  commit: 'https://docs.github.com/rest/commits/commits#get-a-commit',
  commitPulls:
    'https://docs.github.com/rest/commits/commits#list-pull-requests-associated-with-a-commit',
  pullFiles: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests-files',
  listComments: 'https://docs.github.com/rest/issues/comments#list-issue-comments',
  createComment: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
  getComment: 'https://docs.github.com/rest/issues/comments#get-an-issue-comment',
  updateComment: 'https://docs.github.com/rest/issues/comments#update-an-issue-comment'
}
export const GENERAL_DOCS = 'https://docs.github.com/rest'

/** GitHub's cap on a comment body, in characters. */
export const MAX_COMMENT_LENGTH = 65536
/** What `GITHUB_TOKEN` may spend per repository and hour; shown, never enforced. */
const RATE_LIMIT = 1000
const FIRST_COMMENT_ID = 2_000_000_001

/**
 * The stateful side of the fake GitHub: comments written through it, and the request count its
 * rate-limit headers show.
 *
 * @param {{ now: () => number }} options
 */
export function createGitHub({ now }) {
  /** @type {CommentRecord[]} */
  const comments = []
  /** @type {Set<string>} */
  const seeded = new Set()
  let nextId = FIRST_COMMENT_ID
  let windowStart = now()
  let used = 0

  /** @returns {Record<string, string>} */
  const headers = () => {
    const at = now()
    if (at - windowStart >= 3_600_000) {
      windowStart = at
      used = 0
    }
    return {
      'content-type': JSON_TYPE,
      'x-github-api-version-selected': '2022-11-28',
      'x-github-media-type': 'github.v3; format=json',
      'x-ratelimit-limit': String(RATE_LIMIT),
      'x-ratelimit-remaining': String(Math.max(0, RATE_LIMIT - used)),
      'x-ratelimit-reset': String(Math.floor((windowStart + 3_600_000) / 1000)),
      'x-ratelimit-used': String(used),
      'x-ratelimit-resource': 'core'
    }
  }

  /**
   * @param {number} status
   * @param {unknown} value
   * @param {Record<string, string>} [extra]
   * @returns {Answer}
   */
  const json = (status, value, extra = {}) => ({
    ...answer(status, JSON.stringify(value), { ...headers(), ...extra }),
    github: true
  })

  /**
   * @param {number} status
   * @param {string} message
   * @param {string} docs
   * @param {Record<string, unknown>} [more] e.g. `errors` of a validation failure
   * @returns {Answer}
   */
  const error = (status, message, docs, more = {}) =>
    json(status, { message, ...more, documentation_url: docs, status: String(status) })

  /**
   * Seeds the comment threads the `comments` knob gives for this repository, the first time the
   * repository's comments are touched.
   *
   * @param {GitHubSettings} settings
   * @param {GitHubRoute} route
   */
  const seed = (settings, route) => {
    for (const [number, inputs] of Object.entries(settings.comments)) {
      const key = threadKey(route.owner, route.repo, Number(number))
      if (seeded.has(key)) continue
      seeded.add(key)
      for (const input of inputs) {
        const createdAt = input.created_at ?? timestamp(now())
        const id = input.id ?? nextId++
        comments.push({
          id,
          owner: route.owner,
          repo: route.repo,
          issueNumber: Number(number),
          body: input.body,
          user: input.user ?? route.owner,
          createdAt,
          updatedAt: input.updated_at ?? createdAt,
          history: [input.body]
        })
      }
    }
  }

  /**
   * @param {GitHubRoute} route
   * @param {number} number
   * @returns {CommentRecord[]}
   */
  const thread = (route, number) => {
    const key = threadKey(route.owner, route.repo, number)
    return comments
      .filter((c) => threadKey(c.owner, c.repo, c.issueNumber) === key)
      .sort((a, b) => a.id - b.id)
  }

  /**
   * @param {GitHubRoute} route
   * @returns {CommentRecord | undefined}
   */
  const findComment = (route) =>
    comments.find(
      (c) =>
        c.id === route.commentId &&
        c.owner.toLowerCase() === route.owner.toLowerCase() &&
        c.repo.toLowerCase() === route.repo.toLowerCase()
    )

  /**
   * The body a comment route was sent, or the error GitHub gives for it.
   *
   * @param {string} text
   * @param {string} docs
   * @returns {string | Answer}
   */
  const readCommentBody = (text, docs) => {
    const parsed = parseJson(text)
    if (parsed === undefined) return error(400, 'Problems parsing JSON', docs)
    const body = isObject(parsed) ? parsed.body : undefined
    if (body === undefined) return error(422, 'Invalid request.\n\n"body" wasn\'t supplied.', docs)
    if (typeof body !== 'string') {
      return error(
        422,
        `Invalid request.\n\nFor 'properties/body', ${JSON.stringify(body)} is not a string.`,
        docs
      )
    }
    if (body.trim() === '') {
      return error(422, 'Validation Failed', docs, {
        errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }]
      })
    }
    if ([...body].length > MAX_COMMENT_LENGTH) {
      return error(422, 'Validation Failed', docs, {
        errors: [
          {
            resource: 'IssueComment',
            code: 'custom',
            field: 'body',
            message: `body is too long (maximum is ${MAX_COMMENT_LENGTH} characters)`
          }
        ]
      })
    }
    return body
  }

  /**
   * @param {GitHubRoute} route
   * @param {GitHubRequest} request
   * @param {GitHubSettings} settings
   * @returns {Answer}
   */
  const handle = (route, request, settings) => {
    const denied = authenticate(request.headers, settings)
    if (denied) return error(401, denied, GENERAL_DOCS)
    used += 1

    /** @type {Where} */
    const where = {
      api: `${request.origin}${route.prefix}`,
      server: settings.serverUrl,
      owner: route.owner,
      repo: route.repo
    }
    const docs = DOCS[route.kind]
    const self = `${request.origin}${route.pathname}`

    switch (route.kind) {
      case 'compare': {
        const base = route.base ?? ''
        const head = route.head ?? ''
        if (isMissing(settings, where, base) || isMissing(settings, where, head)) {
          return error(404, 'Not Found', docs)
        }
        const data = comparisonData(settings, where, base, head)
        const paged = route.query.has('page') || route.query.has('per_page')
        const page = paged
          ? paginate(data.commits, route.query, self, { perPage: 30, max: 100 })
          : { items: data.commits.slice(-CAP.compareCommits), number: 1, link: undefined }
        const body = renderComparison(
          {
            ...data,
            commits: page.items,
            files: data.files.slice(0, CAP.compareFiles),
            baseRef: base,
            headRef: head,
            totalCommits: data.commits.length,
            showFiles: page.number === 1
          },
          where
        )
        return json(200, body, linkHeader(page.link))
      }
      case 'commit': {
        const ref = route.ref ?? ''
        if (isMissing(settings, where, ref)) {
          return error(422, `No commit found for SHA: ${ref}`, docs)
        }
        const commit = commitData(settings, where, ref)
        const files = commit.files.slice(0, CAP.files)
        const page = paginate(files, route.query, self, { perPage: 300, max: 300 })
        return json(200, renderCommit(commit, where, { files: page.items }), linkHeader(page.link))
      }
      case 'commitPulls': {
        const ref = route.ref ?? ''
        if (isMissing(settings, where, ref)) {
          return error(422, `No commit found for SHA: ${ref}`, docs)
        }
        const sha = resolveSha(settings, where, ref)
        const numbers = Object.entries(settings.commitPulls)
          .filter(([key]) => resolveSha(settings, where, key) === sha)
          .flatMap(([, list]) => list)
        const page = paginate(numbers, route.query, self, { perPage: 30, max: 100 })
        const pulls = page.items.map((n) => renderPull(pullData(settings, where, n), where))
        return json(200, pulls, linkHeader(page.link))
      }
      case 'pullFiles': {
        const pull = pullData(settings, where, route.number ?? 0)
        const files = pull.files.slice(0, CAP.files)
        const page = paginate(files, route.query, self, { perPage: 30, max: 100 })
        const rendered = page.items.map((file) => renderFile(file, where, pull.head.sha))
        return json(200, rendered, linkHeader(page.link))
      }
      case 'listComments': {
        seed(settings, route)
        const list = thread(route, route.number ?? 0)
        const page = paginate(list, route.query, self, { perPage: 30, max: 100 })
        const rendered = page.items.map((comment) => renderComment(comment, where))
        return json(200, rendered, linkHeader(page.link))
      }
      case 'createComment': {
        seed(settings, route)
        const body = readCommentBody(request.body, docs)
        if (typeof body !== 'string') return body
        const at = timestamp(now())
        /** @type {CommentRecord} */
        const comment = {
          id: nextId++,
          owner: route.owner,
          repo: route.repo,
          issueNumber: route.number ?? 0,
          body,
          user: settings.user,
          createdAt: at,
          updatedAt: at,
          history: [body]
        }
        comments.push(comment)
        const rendered = renderComment(comment, where)
        return json(201, rendered, { location: rendered.url })
      }
      case 'getComment': {
        seed(settings, route)
        const comment = findComment(route)
        if (!comment) return error(404, 'Not Found', docs)
        return json(200, renderComment(comment, where))
      }
      case 'updateComment': {
        seed(settings, route)
        const comment = findComment(route)
        if (!comment) return error(404, 'Not Found', docs)
        const body = readCommentBody(request.body, docs)
        if (typeof body !== 'string') return body
        comment.body = body
        comment.updatedAt = timestamp(now())
        comment.history.push(body)
        return json(200, renderComment(comment, where))
      }
    }
  }

  return {
    /** Every comment the fake GitHub holds, in the order they came to be. */
    comments,
    handle,
    /**
     * An answer in GitHub's error shape, for routes the simulator does not play.
     *
     * @param {number} status
     * @param {string} message
     * @returns {Answer}
     */
    error: (status, message) => error(status, message, GENERAL_DOCS)
  }
}

/**
 * `Bearer` and `token` both work, as on GitHub; the `token` knob, when set, is the only one.
 *
 * @param {IncomingHttpHeaders} headers
 * @param {GitHubSettings} settings
 * @returns {string | undefined} GitHub's message when the request may not pass
 */
function authenticate(headers, settings) {
  const authorization = headers.authorization
  if (authorization === undefined || authorization.trim() === '') return 'Requires authentication'
  const token = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(authorization)?.[1]
  if (token === undefined) return 'Bad credentials'
  if (settings.token !== null && token !== settings.token) return 'Bad credentials'
  return undefined
}

/**
 * @param {string} owner
 * @param {string} repo
 * @param {number} number
 * @returns {string}
 */
function threadKey(owner, repo, number) {
  return `${owner}/${repo}#${number}`.toLowerCase()
}

/**
 * GitHub's timestamps: ISO 8601 to the second.
 *
 * @param {number} ms
 * @returns {string}
 */
function timestamp(ms) {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/**
 * One page of a list as GitHub pages it: `per_page` (capped) and `page` from the query, and a
 * `Link` header naming the pages around it, in GitHub's order (prev, next, last, first).
 *
 * @template T
 * @param {T[]} items
 * @param {URLSearchParams} query
 * @param {string} self the page's own URL without its query
 * @param {{ perPage: number, max: number }} sizes
 * @returns {{ items: T[], number: number, link: string | undefined }}
 */
export function paginate(items, query, self, sizes) {
  const perPage = Math.min(sizes.max, positive(query.get('per_page')) ?? sizes.perPage)
  const number = positive(query.get('page')) ?? 1
  const last = Math.max(1, Math.ceil(items.length / perPage))
  const slice = items.slice((number - 1) * perPage, number * perPage)
  /** @type {string[]} */
  const links = []
  /**
   * @param {number} page
   * @param {string} rel
   */
  const add = (page, rel) => {
    const params = new URLSearchParams(query)
    params.set('page', String(page))
    links.push(`<${self}?${params.toString()}>; rel="${rel}"`)
  }
  if (number > 1) add(Math.min(number - 1, last), 'prev')
  if (number < last) {
    add(number + 1, 'next')
    add(last, 'last')
  }
  if (number > 1) add(1, 'first')
  return { items: slice, number, link: links.length > 0 ? links.join(', ') : undefined }
}

/**
 * @param {string | null} text
 * @returns {number | undefined}
 */
function positive(text) {
  if (text === null || !/^\d+$/.test(text)) return undefined
  const value = Number(text)
  return value > 0 ? value : undefined
}

/**
 * @param {string | undefined} link
 * @returns {Record<string, string>}
 */
function linkHeader(link) {
  return link === undefined ? {} : { link }
}
