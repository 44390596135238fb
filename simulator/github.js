// @ts-check
import {
  ACTIONS_BOT,
  byNumber,
  CAP,
  commitData,
  comparisonData,
  isMissing,
  pullData,
  resolveSha
} from './github-data.js'
import {
  docsOf,
  renderAuthenticatedUser,
  renderCheckRun,
  renderCombinedStatus,
  renderComment,
  renderCommit,
  renderComparison,
  renderFile,
  renderLabel,
  renderPull,
  renderRequestedReviewers,
  renderStatus
} from './github-render.js'
import { answer, isObject, JSON_TYPE, parseJson } from './http.js'

/**
 * @typedef {import('node:http').IncomingHttpHeaders} IncomingHttpHeaders
 * @typedef {import('./http.js').Answer} Answer
 * @typedef {import('./github-routes.js').GitHubRoute} GitHubRoute
 * @typedef {import('./github-routes.js').GitHubRouteKind} GitHubRouteKind
 * @typedef {import('./github-data.js').GitHubSettings} GitHubSettings
 * @typedef {import('./github-data.js').PullChange} PullChange
 * @typedef {import('./github-data.js').Where} Where
 * @typedef {import('./github-render.js').CommentRecord} CommentRecord
 * @typedef {import('./github-render.js').StatusRecord} StatusRecord
 * @typedef {import('./github-render.js').CheckRunRecord} CheckRunRecord
 */

/**
 * @typedef {object} GitHubRequest
 * @property {IncomingHttpHeaders} headers
 * @property {string} body
 * @property {string} origin scheme, host and port the client reached the simulator at
 */

/**
 * One request to the fake GitHub as tests read it: never the token itself, only its label.
 *
 * @typedef {object} GitHubRecord
 * @property {GitHubRouteKind} kind
 * @property {string} method
 * @property {string} path the raw request target
 * @property {string | null} repository `owner/name` of the path; null for `/user` and GraphQL
 * @property {string | null} token the label of the token it carried: its key in the `tokens`
 *   knob, `token` for the `token` knob, null when none of them (any token accepted, or refused)
 * @property {number | null} status what it was answered; null for a reset or an answer never
 *   sent
 */

/**
 * Who a request is, once its token is accepted.
 *
 * @typedef {object} Identity
 * @property {string | null} label
 * @property {string} user
 * @property {string[] | null} repos null: every repository
 * @property {string[]} readOnly
 */

/**
 * @typedef {object} Parsed
 * @property {Record<string, unknown>} [value]
 * @property {Answer} [refusal]
 */

export const GENERAL_DOCS = 'https://docs.github.com/rest'
const GRAPHQL_DOCS = 'https://docs.github.com/graphql'

/** GitHub's cap on a comment body, in characters. */
export const MAX_COMMENT_LENGTH = 65536
/** GitHub's cap on a commit status description, in characters. */
export const MAX_STATUS_DESCRIPTION = 140
/** GitHub's cap on a check run's output summary and text, in characters. */
const MAX_CHECK_OUTPUT = 65535
/** What `GITHUB_TOKEN` may spend per repository and hour; shown, never enforced. */
const RATE_LIMIT = 1000
const FIRST_COMMENT_ID = 2_000_000_001
const FIRST_STATUS_ID = 30_000_000_001
const FIRST_CHECK_RUN_ID = 40_000_000_001

const STATUS_STATES = ['error', 'failure', 'pending', 'success']
const CHECK_STATUSES = ['queued', 'in_progress', 'completed', 'waiting', 'requested', 'pending']
const CHECK_CONCLUSIONS = [
  'action_required',
  'cancelled',
  'failure',
  'neutral',
  'success',
  'skipped',
  'stale',
  'timed_out'
]
const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

/**
 * The stateful side of the fake GitHub: what was written through it (comments, statuses, check
 * runs, changes to pull requests), every request it received with the label of its token, and
 * the request count its rate-limit headers show.
 *
 * @param {{ now: () => number }} options
 */
export function createGitHub({ now }) {
  /** @type {CommentRecord[]} */
  const comments = []
  /** @type {StatusRecord[]} */
  const statuses = []
  /** @type {CheckRunRecord[]} */
  const checkRuns = []
  /** @type {GitHubRecord[]} */
  const requests = []
  /** @type {Map<string, PullChange>} by `owner/name#number`, lower case */
  const pulls = new Map()
  /** @type {Set<string>} */
  const seeded = new Set()
  let nextId = FIRST_COMMENT_ID
  let nextStatusId = FIRST_STATUS_ID
  let nextCheckRunId = FIRST_CHECK_RUN_ID
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
   * The 422 GitHub gives for a field it rejects after parsing.
   *
   * @param {string} resource
   * @param {string} field
   * @param {string} message
   * @param {string} docs
   * @returns {Answer}
   */
  const invalid = (resource, field, message, docs) =>
    error(422, 'Validation Failed', docs, {
      errors: [{ resource, code: 'custom', field, message }]
    })

  /**
   * The 422 GitHub gives when a body does not match the route's schema.
   *
   * @param {string} field
   * @param {unknown} value
   * @param {string} what e.g. `is not a string`
   * @param {string} docs
   * @returns {Answer}
   */
  const schema = (field, value, what, docs) =>
    error(
      422,
      `Invalid request.\n\nFor 'properties/${field}', ${JSON.stringify(value)} ${what}.`,
      docs
    )

  /**
   * @param {string} text
   * @param {string} docs
   * @returns {{ value: Record<string, unknown> } | { refusal: Answer }}
   */
  const readObject = (text, docs) => {
    const parsed = parseJson(text)
    if (parsed === undefined) return { refusal: error(400, 'Problems parsing JSON', docs) }
    if (!isObject(parsed)) {
      return { refusal: error(422, 'Invalid request.\n\nThe body must be an object.', docs) }
    }
    return { value: parsed }
  }

  /**
   * @param {IncomingHttpHeaders} requestHeaders
   * @param {GitHubSettings} settings
   * @returns {Identity | string} the identity, or GitHub's message when the request may not pass
   */
  const authenticate = (requestHeaders, settings) => {
    const authorization = requestHeaders.authorization
    if (authorization === undefined || authorization.trim() === '') {
      return 'Requires authentication'
    }
    const token = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(authorization)?.[1]
    if (token === undefined) return 'Bad credentials'
    for (const [label, known] of Object.entries(settings.tokens)) {
      if (known.token === token) {
        return { label, user: known.user, repos: known.repos, readOnly: known.readOnly }
      }
    }
    if (settings.token !== null) {
      if (token !== settings.token) return 'Bad credentials'
      return { label: 'token', user: settings.user, repos: null, readOnly: [] }
    }
    if (Object.keys(settings.tokens).length > 0) return 'Bad credentials'
    return { label: null, user: settings.user, repos: null, readOnly: [] }
  }

  /**
   * Records a request before it is answered, faults included; `status` is filled in when sent.
   *
   * @param {GitHubRoute} route
   * @param {string} method
   * @param {string} path
   * @param {IncomingHttpHeaders} requestHeaders
   * @param {GitHubSettings} settings
   * @returns {GitHubRecord}
   */
  const receive = (route, method, path, requestHeaders, settings) => {
    const identity = authenticate(requestHeaders, settings)
    /** @type {GitHubRecord} */
    const record = {
      kind: route.kind,
      method,
      path,
      repository: route.owner === '' ? null : `${route.owner}/${route.repo}`,
      token: typeof identity === 'string' ? null : identity.label,
      status: null
    }
    requests.push(record)
    return record
  }

  /**
   * What GitHub answers a token for a repository outside its reach: a repository it cannot see
   * does not exist for it; one it may only read refuses writes.
   *
   * @param {Identity} identity
   * @param {GitHubRoute} route
   * @returns {Answer | undefined}
   */
  const reach = (identity, route) => {
    if (identity.repos === null || route.owner === '') return undefined
    const fullName = `${route.owner}/${route.repo}`.toLowerCase()
    const listed = (/** @type {string[]} */ list) => list.some((r) => r.toLowerCase() === fullName)
    if (listed(identity.repos)) return undefined
    if (listed(identity.readOnly)) {
      if (!WRITES.has(route.method)) return undefined
      const holder = identity.user.endsWith('[bot]') ? 'integration' : 'personal access token'
      return error(403, `Resource not accessible by ${holder}`, docsOf(route.kind))
    }
    return error(404, 'Not Found', docsOf(route.kind))
  }

  /**
   * The threads the `comments` knob gives for this repository, filled the first time the
   * repository's comments are touched.
   *
   * @param {GitHubSettings} settings
   * @param {Where} where
   * @param {number} [only] fill this thread alone: reading a pull request fills no other
   */
  const seed = (settings, where, only) => {
    const fullName = `${where.owner}/${where.repo}`.toLowerCase()
    for (const key of Object.keys(settings.comments)) {
      const [, repository, digits] = /^(?:(.+)#)?(\d+)$/.exec(key) ?? []
      if (repository !== undefined && repository.toLowerCase() !== fullName) continue
      const number = Number(digits)
      if (only !== undefined && number !== only) continue
      const thread = threadKey(where.owner, where.repo, number)
      if (seeded.has(thread)) continue
      seeded.add(thread)
      for (const input of byNumber(settings.comments, where, number) ?? []) {
        const createdAt = input.created_at ?? timestamp(now())
        comments.push({
          id: input.id ?? nextId++,
          owner: where.owner,
          repo: where.repo,
          issueNumber: number,
          body: input.body,
          user: input.user ?? where.owner,
          createdAt,
          updatedAt: input.updated_at ?? createdAt,
          history: [input.body],
          token: null
        })
      }
    }
  }

  /**
   * @param {Where} where
   * @param {number} number
   * @returns {CommentRecord[]}
   */
  const thread = (where, number) => {
    const key = threadKey(where.owner, where.repo, number)
    return comments
      .filter((c) => threadKey(c.owner, c.repo, c.issueNumber) === key)
      .sort((a, b) => a.id - b.id)
  }

  /**
   * @param {GitHubRoute} route
   * @returns {CommentRecord | undefined}
   */
  const findComment = (route) =>
    comments.find((c) => c.id === route.commentId && sameRepo(c, route))

  /**
   * @param {Where} where
   * @param {number} number
   * @returns {PullChange}
   */
  const pullChange = (where, number) => {
    const key = threadKey(where.owner, where.repo, number)
    let change = pulls.get(key)
    if (!change) {
      change = {}
      pulls.set(key, change)
    }
    return change
  }

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
    if (typeof body !== 'string') return schema('body', body, 'is not a string', docs)
    if (body.trim() === '') {
      return error(422, 'Validation Failed', docs, {
        errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }]
      })
    }
    if ([...body].length > MAX_COMMENT_LENGTH) {
      return invalid(
        'IssueComment',
        'body',
        `body is too long (maximum is ${MAX_COMMENT_LENGTH} characters)`,
        docs
      )
    }
    return body
  }

  /**
   * A check run's fields from a create or an update, checked as GitHub checks them.
   *
   * @param {Record<string, unknown>} body
   * @param {boolean} create
   * @param {string} docs
   * @returns {Answer | undefined}
   */
  const checkRunBody = (body, create, docs) => {
    for (const field of ['name', 'head_sha']) {
      if (create && body[field] === undefined) {
        return error(422, `Invalid request.\n\n"${field}" wasn't supplied.`, docs)
      }
    }
    for (const field of [
      'name',
      'head_sha',
      'details_url',
      'external_id',
      'started_at',
      'completed_at'
    ]) {
      const value = body[field]
      if (value !== undefined && typeof value !== 'string') {
        return schema(field, value, 'is not a string', docs)
      }
    }
    if (
      body.status !== undefined &&
      !CHECK_STATUSES.includes(/** @type {string} */ (body.status))
    ) {
      return schema(
        'status',
        body.status,
        `is not a member of ${JSON.stringify(CHECK_STATUSES)}`,
        docs
      )
    }
    const conclusion = body.conclusion
    if (
      conclusion !== undefined &&
      conclusion !== null &&
      !CHECK_CONCLUSIONS.includes(/** @type {string} */ (conclusion))
    ) {
      return schema(
        'conclusion',
        conclusion,
        `is not a member of ${JSON.stringify(CHECK_CONCLUSIONS)}`,
        docs
      )
    }
    if (body.status === 'completed' && (conclusion === undefined || conclusion === null)) {
      return error(422, 'Invalid request.\n\n"conclusion" wasn\'t supplied.', docs)
    }
    const output = body.output
    if (output !== undefined) {
      if (!isObject(output)) return schema('output', output, 'is not an object', docs)
      for (const field of ['title', 'summary', 'text']) {
        const value = output[field]
        if (value !== undefined && typeof value !== 'string') {
          return schema(`output/properties/${field}`, value, 'is not a string', docs)
        }
        if (
          typeof value === 'string' &&
          field !== 'title' &&
          [...value].length > MAX_CHECK_OUTPUT
        ) {
          return invalid(
            'CheckRun',
            `output.${field}`,
            `${field} is too long (maximum is ${MAX_CHECK_OUTPUT} characters)`,
            docs
          )
        }
      }
      if (output.summary === undefined || output.title === undefined) {
        return error(
          422,
          'Invalid request.\n\n"title" and "summary" are required in "output".',
          docs
        )
      }
    }
    return undefined
  }

  /**
   * Applies a checked create or update to a check run.
   *
   * @param {CheckRunRecord} run
   * @param {Record<string, unknown>} body
   * @param {string} at
   */
  const applyCheckRun = (run, body, at) => {
    const text = (/** @type {unknown} */ value) => (typeof value === 'string' ? value : null)
    if (typeof body.name === 'string') run.name = body.name
    // The workflow token's check runs link to the job that made them, whatever they ask for.
    if (typeof body.details_url === 'string' && run.app !== ACTIONS_BOT)
      run.detailsUrl = body.details_url
    if (typeof body.external_id === 'string') run.externalId = body.external_id
    if (typeof body.started_at === 'string') run.startedAt = body.started_at
    if (typeof body.status === 'string') run.status = body.status
    if (typeof body.conclusion === 'string') {
      run.conclusion = body.conclusion
      run.status = 'completed'
    }
    if (run.status === 'completed') {
      run.completedAt = text(body.completed_at) ?? run.completedAt ?? at
    }
    if (isObject(body.output)) {
      run.output = {
        title: text(body.output.title),
        summary: text(body.output.summary),
        text: text(body.output.text)
      }
    }
    run.history.push(structuredClone(body))
  }

  /**
   * @param {string} text
   * @param {string} docs
   * @returns {string[] | Answer} label names
   */
  const readLabels = (text, docs) => {
    const parsed = parseJson(text)
    if (parsed === undefined) return error(400, 'Problems parsing JSON', docs)
    const list = Array.isArray(parsed) ? parsed : isObject(parsed) ? parsed.labels : undefined
    if (!Array.isArray(list))
      return error(422, 'Invalid request.\n\n"labels" wasn\'t supplied.', docs)
    /** @type {string[]} */
    const names = []
    for (const item of list) {
      const name = typeof item === 'string' ? item : isObject(item) ? item.name : undefined
      if (typeof name !== 'string' || name.trim() === '') {
        return schema('labels', item, 'is not a label name', docs)
      }
      names.push(name)
    }
    if (names.length === 0) {
      return error(422, 'Invalid request.\n\nNo labels were given.', docs)
    }
    return names
  }

  /**
   * @param {GitHubRoute} route
   * @param {GitHubRequest} request
   * @param {GitHubSettings} settings
   * @returns {Answer}
   */
  const handle = (route, request, settings) => {
    const identity = authenticate(request.headers, settings)
    if (typeof identity === 'string') {
      if (route.kind === 'graphql') {
        return json(401, { message: identity, documentation_url: GRAPHQL_DOCS })
      }
      return error(401, identity, GENERAL_DOCS)
    }
    used += 1
    const refused = reach(identity, route)
    if (refused) return refused

    /** @type {Where} */
    const where = {
      api: `${request.origin}${route.prefix}`,
      server: settings.serverUrl,
      owner: route.owner,
      repo: route.repo
    }
    const docs = docsOf(route.kind)
    const self = `${request.origin}${route.pathname}`
    const at = timestamp(now())
    const number = route.number ?? 0
    const ref = route.ref ?? ''

    switch (route.kind) {
      case 'graphql': {
        const body = parseJson(request.body)
        const query = isObject(body) ? body.query : undefined
        if (typeof query !== 'string') {
          return json(200, {
            errors: [{ message: 'A query attribute must be specified and must be a string.' }]
          })
        }
        if (/\bviewer\s*\{\s*login\s*\}/.test(query)) {
          return json(200, { data: { viewer: { login: identity.user } } })
        }
        return json(200, {
          errors: [{ message: 'Only the query { viewer { login } } is answered here.' }]
        })
      }
      case 'getUser': {
        if (identity.user.endsWith('[bot]')) {
          return error(403, 'Resource not accessible by integration', docs)
        }
        return json(200, renderAuthenticatedUser(identity.user, where))
      }
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
        if (isMissing(settings, where, ref))
          return error(422, `No commit found for SHA: ${ref}`, docs)
        const commit = commitData(settings, where, ref)
        const files = commit.files.slice(0, CAP.files)
        const page = paginate(files, route.query, self, { perPage: 300, max: 300 })
        return json(200, renderCommit(commit, where, { files: page.items }), linkHeader(page.link))
      }
      case 'commitPulls': {
        if (isMissing(settings, where, ref))
          return error(422, `No commit found for SHA: ${ref}`, docs)
        const sha = resolveSha(settings, where, ref)
        const numbers = Object.entries(settings.commitPulls)
          .filter(([key]) => resolveSha(settings, where, key) === sha)
          .flatMap(([, list]) => list)
        const page = paginate(numbers, route.query, self, { perPage: 30, max: 100 })
        const rendered = page.items.map((n) => renderPull(pull(settings, where, n), where))
        return json(200, rendered, linkHeader(page.link))
      }
      case 'pullFiles': {
        const data = pull(settings, where, number)
        const files = data.files.slice(0, CAP.files)
        const page = paginate(files, route.query, self, { perPage: 30, max: 100 })
        const rendered = page.items.map((file) => renderFile(file, where, data.head.sha))
        return json(200, rendered, linkHeader(page.link))
      }
      case 'getPull': {
        seed(settings, where, number)
        const count = thread(where, number).length
        return json(
          200,
          renderPull(pull(settings, where, number), where, { whole: true, comments: count })
        )
      }
      case 'updatePull': {
        const read = readObject(request.body, docs)
        if ('refusal' in read) return read.refusal
        const body = read.value
        const { state, title } = body
        if (state !== undefined && state !== 'open' && state !== 'closed') {
          return schema('state', state, 'is not a member of ["open", "closed"]', docs)
        }
        if (title !== undefined && typeof title !== 'string') {
          return schema('title', title, 'is not a string', docs)
        }
        if (body.body !== undefined && body.body !== null && typeof body.body !== 'string') {
          return schema('body', body.body, 'is not a string', docs)
        }
        const before = pull(settings, where, number)
        if (state === 'open' && before.mergedAt !== null) {
          return invalid(
            'PullRequest',
            'state',
            'state cannot be changed. The pull request cannot be reopened because it is merged.',
            docs
          )
        }
        const change = pullChange(where, number)
        if (state !== undefined && state !== before.state) {
          change.state = state
          if (state === 'closed') change.closedAt = at
        }
        if (typeof title === 'string') change.title = title
        if (body.body !== undefined) change.body = /** @type {string | null} */ (body.body)
        change.updatedAt = at
        seed(settings, where)
        const count = thread(where, number).length
        return json(
          200,
          renderPull(pull(settings, where, number), where, { kind: 'updatePull', comments: count })
        )
      }
      case 'listRequestedReviewers': {
        const data = pull(settings, where, number)
        return json(
          200,
          renderRequestedReviewers({ reviewers: data.reviewers, teams: data.teams }, where)
        )
      }
      case 'requestReviewers': {
        const read = readObject(request.body, docs)
        if ('refusal' in read) return read.refusal
        const body = read.value
        /** @type {string[][]} */
        const lists = []
        for (const field of ['reviewers', 'team_reviewers']) {
          const value = body[field] ?? []
          if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
            return schema(field, value, 'is not an array of strings', docs)
          }
          lists.push(value)
        }
        const [reviewers = [], teams = []] = lists
        if (body.reviewers === undefined && body.team_reviewers === undefined) {
          return error(
            422,
            'Invalid request.\n\n"reviewers" or "team_reviewers" must be supplied.',
            docs
          )
        }
        const data = pull(settings, where, number)
        if (reviewers.some((login) => login.toLowerCase() === data.user.toLowerCase())) {
          return error(422, 'Review cannot be requested from pull request author.', docs)
        }
        const strangers = settings.nonCollaborators.map((login) => login.toLowerCase())
        if (
          reviewers.some((login) => strangers.includes(login.toLowerCase())) ||
          teams.some((slug) => slug.includes('/'))
        ) {
          return error(
            422,
            'Reviews may only be requested from collaborators. One or more of the users or ' +
              `teams you specified is not a collaborator of the ${route.owner}/${route.repo} repository.`,
            docs
          )
        }
        const change = pullChange(where, number)
        change.reviewers = union(data.reviewers, reviewers)
        change.teams = union(data.teams, teams)
        change.updatedAt = at
        return json(
          201,
          renderPull(pull(settings, where, number), where, { kind: 'requestReviewers' })
        )
      }
      case 'addLabels': {
        const names = readLabels(request.body, docs)
        if (!Array.isArray(names)) return names
        const change = pullChange(where, number)
        change.labels = union(pull(settings, where, number).labels, names)
        change.updatedAt = at
        return json(
          200,
          change.labels.map((name) => renderLabel(name, where))
        )
      }
      case 'listComments': {
        seed(settings, where)
        const page = paginate(thread(where, number), route.query, self, { perPage: 30, max: 100 })
        const rendered = page.items.map((comment) => renderComment(comment, where))
        return json(200, rendered, linkHeader(page.link))
      }
      case 'createComment': {
        seed(settings, where)
        const body = readCommentBody(request.body, docs)
        if (typeof body !== 'string') return body
        /** @type {CommentRecord} */
        const comment = {
          id: nextId++,
          owner: route.owner,
          repo: route.repo,
          issueNumber: number,
          body,
          user: identity.user,
          createdAt: at,
          updatedAt: at,
          history: [body],
          token: identity.label
        }
        comments.push(comment)
        const rendered = renderComment(comment, where)
        return json(201, rendered, { location: rendered.url })
      }
      case 'getComment': {
        seed(settings, where)
        const comment = findComment(route)
        if (!comment) return error(404, 'Not Found', docs)
        return json(200, renderComment(comment, where))
      }
      case 'updateComment': {
        seed(settings, where)
        const comment = findComment(route)
        if (!comment) return error(404, 'Not Found', docs)
        const body = readCommentBody(request.body, docs)
        if (typeof body !== 'string') return body
        comment.body = body
        comment.updatedAt = at
        comment.history.push(body)
        return json(200, renderComment(comment, where))
      }
      case 'createStatus': {
        const read = readObject(request.body, docs)
        if ('refusal' in read) return read.refusal
        const body = read.value
        const { state, context = 'default', description = null, target_url = null } = body
        if (state === undefined)
          return error(422, 'Invalid request.\n\n"state" wasn\'t supplied.', docs)
        if (!STATUS_STATES.includes(/** @type {string} */ (state))) {
          return schema('state', state, `is not a member of ${JSON.stringify(STATUS_STATES)}`, docs)
        }
        for (const [field, value] of /** @type {const} */ ([
          ['context', context],
          ['description', description],
          ['target_url', target_url]
        ])) {
          if (value !== null && typeof value !== 'string') {
            return schema(field, value, 'is not a string', docs)
          }
        }
        if (typeof description === 'string' && [...description].length > MAX_STATUS_DESCRIPTION) {
          return invalid(
            'Status',
            'description',
            `description is too long (maximum is ${MAX_STATUS_DESCRIPTION} characters)`,
            docs
          )
        }
        if (isMissing(settings, where, ref))
          return error(422, `No commit found for SHA: ${ref}`, docs)
        /** @type {StatusRecord} */
        const status = {
          id: nextStatusId++,
          owner: route.owner,
          repo: route.repo,
          sha: resolveSha(settings, where, ref),
          state: /** @type {StatusRecord['state']} */ (state),
          context: /** @type {string} */ (context),
          description: /** @type {string | null} */ (description),
          targetUrl: /** @type {string | null} */ (target_url),
          creator: identity.user,
          createdAt: at,
          token: identity.label
        }
        statuses.push(status)
        return json(201, renderStatus(status, where), { location: `${self}` })
      }
      case 'listStatuses': {
        const sha = resolveSha(settings, where, ref)
        const list = statusesOf(where, sha).reverse()
        const page = paginate(list, route.query, self, { perPage: 30, max: 100 })
        return json(
          200,
          page.items.map((status) => renderStatus(status, where)),
          linkHeader(page.link)
        )
      }
      case 'combinedStatus': {
        if (isMissing(settings, where, ref)) return error(404, 'Not Found', docs)
        const sha = resolveSha(settings, where, ref)
        /** @type {Map<string, StatusRecord>} */
        const latest = new Map()
        for (const status of statusesOf(where, sha)) latest.set(status.context, status)
        return json(200, renderCombinedStatus(sha, [...latest.values()], where))
      }
      case 'createCheckRun': {
        const read = readObject(request.body, docs)
        if ('refusal' in read) return read.refusal
        const body = read.value
        const wrong = checkRunBody(body, true, docs)
        if (wrong) return wrong
        const headSha = /** @type {string} */ (body.head_sha)
        if (isMissing(settings, where, headSha)) {
          return error(422, `No commit found for SHA: ${headSha}`, docs)
        }
        /** @type {CheckRunRecord} */
        const run = {
          id: nextCheckRunId++,
          owner: route.owner,
          repo: route.repo,
          headSha: resolveSha(settings, where, headSha),
          name: '',
          status: 'queued',
          conclusion: null,
          detailsUrl: null,
          externalId: null,
          startedAt: at,
          completedAt: null,
          output: { title: null, summary: null, text: null },
          app: identity.user,
          history: [],
          token: identity.label
        }
        applyCheckRun(run, body, at)
        checkRuns.push(run)
        return json(201, renderCheckRun(run, where))
      }
      case 'getCheckRun':
      case 'updateCheckRun': {
        const run = checkRuns.find((r) => r.id === route.checkRunId && sameRepo(r, route))
        if (!run) return error(404, 'Not Found', docs)
        if (route.kind === 'updateCheckRun') {
          const read = readObject(request.body, docs)
          if ('refusal' in read) return read.refusal
          const body = read.value
          const wrong = checkRunBody(body, false, docs)
          if (wrong) return wrong
          applyCheckRun(run, body, at)
        }
        return json(200, renderCheckRun(run, where))
      }
      case 'listCheckRuns': {
        const sha = resolveSha(settings, where, ref)
        const name = route.query.get('check_name')
        const status = route.query.get('status')
        const list = checkRuns
          .filter((r) => sameRepo(r, route) && r.headSha === sha)
          .filter(
            (r) => (name === null || r.name === name) && (status === null || r.status === status)
          )
          .reverse()
        const page = paginate(list, route.query, self, { perPage: 30, max: 100 })
        const body = {
          total_count: list.length,
          check_runs: page.items.map((r) => renderCheckRun(r, where))
        }
        return json(200, body, linkHeader(page.link))
      }
    }
  }

  /**
   * @param {Where} where
   * @param {string} sha
   * @returns {StatusRecord[]} oldest first
   */
  const statusesOf = (where, sha) => statuses.filter((s) => sameRepo(s, where) && s.sha === sha)

  /**
   * @param {GitHubSettings} settings
   * @param {Where} where
   * @param {number} number
   */
  const pull = (settings, where, number) =>
    pullData(settings, where, number, pulls.get(threadKey(where.owner, where.repo, number)))

  return {
    /** Every comment the fake GitHub holds, in the order they came to be. */
    comments,
    /** Every commit status written through it, oldest first. */
    statuses,
    /** Every check run made through it, oldest first; updates change them in place. */
    checkRuns,
    /** Every request it received, with the label of its token. */
    requests,
    /** What was written to pull requests (state, labels, reviewers), by `owner/name#number`. */
    pulls,
    receive,
    handle,
    /**
     * Deletes a comment, as a person can on GitHub while the action runs: later reads of it and
     * updates to it answer 404. Returns whether there was one with that id.
     *
     * @param {number} id
     * @returns {boolean}
     */
    deleteComment: (id) => {
      const at = comments.findIndex((c) => c.id === id)
      if (at >= 0) comments.splice(at, 1)
      return at >= 0
    },
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
 * @param {{ owner: string, repo: string }} a
 * @param {{ owner: string, repo: string }} b
 * @returns {boolean}
 */
function sameRepo(a, b) {
  return (
    a.owner.toLowerCase() === b.owner.toLowerCase() && a.repo.toLowerCase() === b.repo.toLowerCase()
  )
}

/**
 * @param {string[]} had
 * @param {string[]} more
 * @returns {string[]} `had`, then what `more` adds, compared without case as GitHub does
 */
function union(had, more) {
  const out = [...had]
  for (const item of more) {
    if (!out.some((known) => known.toLowerCase() === item.toLowerCase())) out.push(item)
  }
  return out
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
