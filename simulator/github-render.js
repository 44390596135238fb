// @ts-check
import { readFileSync } from 'node:fs'
import { account, fakeId, fakeSha } from './github-data.js'

/**
 * The fake GitHub's answers, each built from the example GitHub's REST description gives for its
 * route (`github-examples.json`, written by `scripts/github-examples.js`). An answer keeps every
 * field of the example and overrides those the action reads or that must agree with the request:
 * ids, numbers, shas, bodies, accounts, states, and links, which point at the simulator's origin
 * (`api`) and the `serverUrl` knob (`server`).
 *
 * @typedef {import('./github-data.js').GitHubFileInput} GitHubFileInput
 * @typedef {import('./github-data.js').CommitData} CommitData
 * @typedef {import('./github-data.js').PullData} PullData
 * @typedef {import('./github-data.js').Where} Where
 * @typedef {import('./github-routes.js').GitHubRouteKind} GitHubRouteKind
 * @typedef {Record<string, any>} Json
 */

/**
 * @typedef {object} CommentRecord
 * @property {number} id
 * @property {string} owner
 * @property {string} repo
 * @property {number} issueNumber
 * @property {string} body
 * @property {string} user login of the author
 * @property {string} createdAt
 * @property {string} updatedAt
 * @property {string[]} history every body the comment had, oldest first; the last is `body`
 * @property {string | null} token label of the token that wrote it (see `GitHubTokenInput`)
 */

/**
 * @typedef {object} StatusRecord
 * @property {number} id
 * @property {string} owner
 * @property {string} repo
 * @property {string} sha
 * @property {'pending' | 'success' | 'failure' | 'error'} state
 * @property {string} context
 * @property {string | null} description
 * @property {string | null} targetUrl
 * @property {string} creator login
 * @property {string} createdAt
 * @property {string | null} token
 */

/**
 * @typedef {object} CheckRunRecord
 * @property {number} id
 * @property {string} owner
 * @property {string} repo
 * @property {string} headSha
 * @property {string} name
 * @property {string} status
 * @property {string | null} conclusion
 * @property {string | null} detailsUrl
 * @property {string | null} externalId
 * @property {string | null} startedAt
 * @property {string | null} completedAt
 * @property {{ title: string | null, summary: string | null, text: string | null }} output
 * @property {string} app login of the account that made it, e.g. `github-actions[bot]`
 * @property {Json[]} history every body it was sent, the create first
 * @property {string | null} token
 */

/**
 * @typedef {{ status: number, docs: string, example: unknown }} RouteExample
 * @type {{ source: string, routes: Record<string, RouteExample>, parts: Record<string, Json> }}
 */
const EXAMPLES = JSON.parse(
  readFileSync(new URL('./github-examples.json', import.meta.url), 'utf8')
)

/** The repository and hosts GitHub's examples are written for. */
const EXAMPLE_API = 'https://api.github.com'
const EXAMPLE_WEB = 'https://github.com'
const EXAMPLE_REPOS = ['octocat/Hello-World', 'github/hello-world']

/** @type {Record<string, number>} */
const KNOWN_REPOSITORY_IDS = {
  'codertocat/hello-world': 186853002,
  'hubot/hello-world': 186853150,
  'octo-org/octo-repo': 6811672
}

/** Pull request ids as the examples give them, by `owner/repo#number`. */
/** @type {Record<string, number>} */
const KNOWN_PULL_IDS = { 'codertocat/hello-world#2': 279147437 }

/** The GitHub App behind `GITHUB_TOKEN`, as check runs name it. */
const ACTIONS_APP = { id: 15368, slug: 'github-actions', name: 'GitHub Actions' }

/**
 * @param {GitHubRouteKind} kind
 * @returns {string} where GitHub's error bodies for the route point
 */
export function docsOf(kind) {
  return EXAMPLES.routes[kind]?.docs ?? 'https://docs.github.com/rest'
}

/**
 * A fresh copy of a route's example with its shared parts filled in and its links moved to the
 * repository and origins of `where`; a list gives its one item.
 *
 * @param {GitHubRouteKind} kind
 * @param {Where} where
 * @returns {Json}
 */
export function example(kind, where) {
  const found = EXAMPLES.routes[kind]
  if (!found) throw new Error(`no example answer for the GitHub route ${kind}`)
  const value = expand(structuredClone(found.example))
  return relink(Array.isArray(value) ? value[0] : value, where)
}

/**
 * @param {unknown} value
 * @returns {any}
 */
function expand(value) {
  if (Array.isArray(value)) return value.map(expand)
  if (typeof value !== 'object' || value === null) return value
  const record = /** @type {Json} */ (value)
  if (typeof record.$part === 'string') return expand(structuredClone(EXAMPLES.parts[record.$part]))
  for (const key of Object.keys(record)) record[key] = expand(record[key])
  return record
}

/**
 * @param {unknown} value
 * @param {Where} where
 * @returns {any}
 */
function relink(value, where) {
  const pairs = [
    ...EXAMPLE_REPOS.flatMap((name) => [
      [`${EXAMPLE_API}/repos/${name}`, repoApi(where)],
      [`${EXAMPLE_WEB}/${name}`, repoWeb(where)]
    ]),
    [EXAMPLE_API, where.api],
    [EXAMPLE_WEB, where.server]
  ]
  return mapStrings(value, (text) =>
    pairs.reduce((out, [from = '', to = '']) => out.split(from).join(to), text)
  )
}

/**
 * @param {unknown} value
 * @param {(text: string) => string} change
 * @returns {any}
 */
function mapStrings(value, change) {
  if (typeof value === 'string') return change(value)
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, change))
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, mapStrings(item, change)])
  )
}

/**
 * GitHub's older global node ids: base64 of a type tag and the database id.
 *
 * @param {string} tag
 * @param {number | string} id
 * @returns {string}
 */
function nodeId(tag, id) {
  return Buffer.from(`${tag}${id}`).toString('base64')
}

/**
 * @param {Where} where
 * @returns {string} the repository's API root, `{api}/repos/{owner}/{repo}`
 */
function repoApi(where) {
  return `${where.api}/repos/${encodeURIComponent(where.owner)}/${encodeURIComponent(where.repo)}`
}

/**
 * @param {Where} where
 * @returns {string} the repository's web page
 */
function repoWeb(where) {
  return `${where.server}/${encodeURIComponent(where.owner)}/${encodeURIComponent(where.repo)}`
}

/**
 * An account in the shape `template` has (a user of an example answer).
 *
 * @param {string} login
 * @param {Where} where
 * @param {Json} [template] default: the account shape most answers use
 * @returns {Json}
 */
export function renderUser(login, where, template = expand({ $part: 'user' })) {
  const { id, type } = account(login)
  const base = `${where.api}/users/${encodeURIComponent(login)}`
  const moved = mapStrings(template, (text) =>
    text
      .replace(/^https:\/\/api\.github\.com\/(?:users|orgs)\/[^/{]+/, base)
      .replace(
        /^https:\/\/github\.com\/images\/.*/,
        `https://avatars.githubusercontent.com/u/${id}?v=4`
      )
  )
  return {
    ...moved,
    login,
    id,
    node_id: nodeId(
      type === 'Bot' ? '03:Bot' : type === 'Organization' ? '012:Organization' : '04:User',
      id
    ),
    avatar_url:
      type === 'Bot'
        ? 'https://avatars.githubusercontent.com/in/15368?v=4'
        : `https://avatars.githubusercontent.com/u/${id}?v=4`,
    html_url:
      type === 'Bot'
        ? `${where.server}/apps/${login.replace(/\[bot\]$/, '')}`
        : `${where.server}/${login}`,
    type,
    site_admin: false
  }
}

/**
 * @param {string} fullName
 * @returns {number}
 */
function repositoryIdOf(fullName) {
  return KNOWN_REPOSITORY_IDS[fullName.toLowerCase()] ?? fakeId(`repo:${fullName.toLowerCase()}`)
}

/**
 * A repository in the shape `template` has.
 *
 * @param {Json} template
 * @param {string} fullName `owner/name`
 * @param {Where} where
 * @param {boolean} fork
 * @returns {Json}
 */
function renderRepository(template, fullName, where, fork) {
  const [owner = fullName, name = fullName] = fullName.split('/')
  const here = { ...where, owner, repo: name }
  const host = new URL(where.server).host
  const moved = mapStrings(template, (text) =>
    EXAMPLE_REPOS.reduce(
      (out, example) =>
        out
          .split(`git://github.com/${example}.git`)
          .join(`git://${host}/${fullName}.git`)
          .split(`git@github.com:${example}.git`)
          .join(`git@${host}:${fullName}.git`)
          .split(`${where.api}/repos/${example}`)
          .join(repoApi(here))
          .split(`${where.server}/${example}`)
          .join(repoWeb(here)),
      text
    )
  )
  const id = repositoryIdOf(fullName)
  return {
    ...relink(moved, here),
    id,
    node_id: nodeId('010:Repository', id),
    name,
    full_name: fullName,
    owner: renderUser(owner, where, template.owner),
    private: false,
    fork,
    ...('default_branch' in template ? { default_branch: 'master' } : {})
  }
}

/**
 * @param {GitHubFileInput} file
 * @param {Where} where
 * @param {string} sha the commit the file is shown at
 * @returns {Json}
 */
export function renderFile(file, where, sha) {
  const count = (/** @type {string} */ sign) =>
    (file.patch ?? '').split('\n').filter((line) => line.startsWith(sign)).length
  const additions = file.additions ?? count('+')
  const deletions = file.deletions ?? count('-')
  const path = file.filename.split('/').map(encodeURIComponent).join('/')
  /** @type {Json} */
  const entry = {
    ...example('pullFiles', where),
    sha: file.sha !== undefined ? file.sha : fakeSha(`blob ${file.filename} at ${sha}`),
    filename: file.filename,
    status: file.status ?? 'modified',
    additions,
    deletions,
    changes: file.changes ?? additions + deletions,
    blob_url: `${repoWeb(where)}/blob/${sha}/${path}`,
    raw_url: `${repoWeb(where)}/raw/${sha}/${path}`,
    contents_url: `${repoApi(where)}/contents/${path}?ref=${sha}`
  }
  delete entry.patch
  delete entry.previous_filename
  if (file.patch !== undefined) entry.patch = file.patch
  if (file.previous_filename !== undefined) entry.previous_filename = file.previous_filename
  return entry
}

/**
 * @param {CommitData} commit
 * @param {Where} where
 * @param {{ files?: GitHubFileInput[] }} [detail] a single commit also lists its files and stats
 * @returns {Json}
 */
export function renderCommit(commit, where, detail) {
  const api = repoApi(where)
  const template = example('commit', where)
  const user = (/** @type {string | null} */ login) =>
    login === null ? null : renderUser(login, where, template.author ?? undefined)
  /** @type {Json} */
  const rendered = {
    ...template,
    sha: commit.sha,
    node_id: nodeId('06:Commit', `${repositoryIdOf(`${where.owner}/${where.repo}`)}:${commit.sha}`),
    commit: {
      ...template.commit,
      author: gitPerson(commit.author),
      committer: gitPerson(commit.committer),
      message: commit.message,
      tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
      url: `${api}/git/commits/${commit.sha}`,
      comment_count: 0,
      verification: {
        ...template.commit?.verification,
        verified: false,
        reason: 'unsigned',
        signature: null,
        payload: null,
        verified_at: null
      }
    },
    url: `${api}/commits/${commit.sha}`,
    html_url: `${repoWeb(where)}/commit/${commit.sha}`,
    comments_url: `${api}/commits/${commit.sha}/comments`,
    author: user(commit.author.login),
    committer: user(commit.committer.login),
    parents: commit.parents.map((sha) => ({
      sha,
      url: `${api}/commits/${sha}`,
      html_url: `${repoWeb(where)}/commit/${sha}`
    }))
  }
  delete rendered.stats
  delete rendered.files
  if (detail?.files) {
    const files = detail.files.map((file) => renderFile(file, where, commit.sha))
    const additions = files.reduce((sum, file) => sum + file.additions, 0)
    const deletions = files.reduce((sum, file) => sum + file.deletions, 0)
    rendered.stats = { total: additions + deletions, additions, deletions }
    rendered.files = files
  }
  return rendered
}

/**
 * @param {{ name: string, email: string, date: string }} person
 * @returns {{ name: string, email: string, date: string }}
 */
function gitPerson(person) {
  return { name: person.name, email: person.email, date: person.date }
}

/**
 * @param {{ base: CommitData, head: CommitData, commits: CommitData[], files: GitHubFileInput[],
 *   baseRef: string, headRef: string, totalCommits: number, showFiles: boolean }} comparison
 * @param {Where} where
 * @returns {Json}
 */
export function renderComparison(comparison, where) {
  const { base, head, baseRef, headRef } = comparison
  const web = repoWeb(where)
  const owner = where.owner
  const html = `${web}/compare/${baseRef}...${headRef}`
  /** @type {Json} */
  const rendered = {
    ...example('compare', where),
    url: `${repoApi(where)}/compare/${baseRef}...${headRef}`,
    html_url: html,
    permalink_url: `${web}/compare/${owner}:${base.sha.slice(0, 7)}...${owner}:${head.sha.slice(0, 7)}`,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    base_commit: renderCommit(base, where),
    merge_base_commit: renderCommit(base, where),
    status: comparison.totalCommits === 0 ? 'identical' : 'ahead',
    ahead_by: comparison.totalCommits,
    behind_by: 0,
    total_commits: comparison.totalCommits,
    commits: comparison.commits.map((commit) => renderCommit(commit, where))
  }
  delete rendered.files
  if (comparison.showFiles) {
    rendered.files = comparison.files.map((file) => renderFile(file, where, head.sha))
  }
  return rendered
}

/**
 * A team in the shape of the requested-reviewers example.
 *
 * @param {string} slug
 * @param {Where} where
 * @returns {Json}
 */
function renderTeam(slug, where) {
  const template = example('listRequestedReviewers', where).teams?.[0] ?? {}
  const id = fakeId(`team:${where.owner}/${slug}`.toLowerCase())
  const url = `${where.api}/teams/${id}`
  return {
    ...template,
    id,
    node_id: nodeId('04:Team', id),
    url,
    html_url: `${where.server}/orgs/${encodeURIComponent(where.owner)}/teams/${slug}`,
    name: slug,
    slug,
    description: null,
    members_url: `${url}/members{/member}`,
    repositories_url: `${url}/repos`,
    parent: null
  }
}

/**
 * @param {string} name
 * @param {Where} where
 * @returns {Json}
 */
export function renderLabel(name, where) {
  const template = example('addLabels', where)
  const id = fakeId(`label:${where.owner}/${where.repo}:${name}`.toLowerCase())
  return {
    ...template,
    id,
    node_id: nodeId('05:Label', id),
    url: `${repoApi(where)}/labels/${encodeURIComponent(name)}`,
    name,
    description: null,
    color: fakeSha(name.toLowerCase()).slice(0, 6),
    default: false
  }
}

/**
 * The users and teams whose review a pull request asks for.
 *
 * @param {{ reviewers: string[], teams: string[] }} requested
 * @param {Where} where
 * @returns {Json}
 */
export function renderRequestedReviewers(requested, where) {
  const template = example('listRequestedReviewers', where)
  return {
    ...template,
    users: requested.reviewers.map((login) => renderUser(login, where)),
    teams: requested.teams.map((slug) => renderTeam(slug, where))
  }
}

/**
 * A pull request: the short shape lists give (`commitPulls`, `requestReviewers`), or the whole
 * one of `getPull` and `updatePull`, which adds merge state and counts.
 *
 * @param {PullData} pull
 * @param {Where} where
 * @param {{ whole?: boolean, comments?: number, kind?: GitHubRouteKind }} [options]
 * @returns {Json}
 */
export function renderPull(pull, where, options = {}) {
  const kind = options.kind ?? (options.whole ? 'getPull' : 'commitPulls')
  const template = example(kind, where)
  const api = repoApi(where)
  const web = repoWeb(where)
  const key = `${where.owner}/${where.repo}#${pull.number}`.toLowerCase()
  const id = KNOWN_PULL_IDS[key] ?? fakeId(`pull:${key}`)
  const self = `${api}/pulls/${pull.number}`
  const html = `${web}/pull/${pull.number}`
  const issue = `${api}/issues/${pull.number}`
  const statuses = `${api}/statuses/${pull.head.sha}`
  /**
   * @param {Required<import('./github-data.js').GitHubBranchInput>} branch
   * @param {Json} side
   * @returns {Json}
   */
  const branch = (branch, side) => {
    const [owner = where.owner] = branch.repo.split('/')
    return {
      ...side,
      label: `${owner}:${branch.ref}`,
      ref: branch.ref,
      sha: branch.sha,
      user: renderUser(owner, where, side.user),
      repo: renderRepository(side.repo, branch.repo, where, branch.repo !== pull.base.repo)
    }
  }
  /** @type {Json} */
  const rendered = {
    ...template,
    url: self,
    id,
    node_id: nodeId('011:PullRequest', id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issue,
    commits_url: `${self}/commits`,
    review_comments_url: `${self}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${issue}/comments`,
    statuses_url: statuses,
    number: pull.number,
    state: pull.state,
    locked: pull.locked,
    title: pull.title,
    user: renderUser(pull.user, where, template.user),
    body: pull.body,
    labels: pull.labels.map((name) => renderLabel(name, where)),
    milestone: null,
    active_lock_reason: null,
    created_at: pull.createdAt,
    updated_at: pull.updatedAt ?? pull.closedAt ?? pull.createdAt,
    closed_at: pull.closedAt,
    merged_at: pull.mergedAt,
    merge_commit_sha: pull.mergeCommitSha,
    assignee: null,
    assignees: [],
    requested_reviewers: pull.reviewers.map((login) => renderUser(login, where)),
    requested_teams: pull.teams.map((slug) => renderTeam(slug, where)),
    head: branch(pull.head, template.head),
    base: branch(pull.base, template.base),
    _links: {
      self: { href: self },
      html: { href: html },
      issue: { href: issue },
      comments: { href: `${issue}/comments` },
      review_comments: { href: `${self}/comments` },
      review_comment: { href: `${api}/pulls/comments{/number}` },
      commits: { href: `${self}/commits` },
      statuses: { href: statuses }
    },
    author_association: pull.user.toLowerCase() === where.owner.toLowerCase() ? 'OWNER' : 'NONE',
    auto_merge: null,
    draft: pull.draft
  }
  if ('merged' in template) {
    const additions = pull.files.reduce((sum, file) => sum + (file.additions ?? 0), 0)
    Object.assign(rendered, {
      merged: pull.mergedAt !== null,
      mergeable: pull.state === 'open' ? true : null,
      rebaseable: pull.state === 'open' ? true : null,
      mergeable_state: pull.state === 'open' ? 'clean' : 'unknown',
      merged_by: null,
      comments: options.comments ?? 0,
      review_comments: 0,
      maintainer_can_modify: false,
      commits: 1,
      additions,
      deletions: pull.files.reduce((sum, file) => sum + (file.deletions ?? 0), 0),
      changed_files: pull.files.length
    })
  }
  return rendered
}

/**
 * Every issue number of the simulator is a pull request, so comment links point at `/pull/`.
 *
 * @param {CommentRecord} comment
 * @param {Where} where
 * @returns {Json}
 */
export function renderComment(comment, where) {
  const here = { ...where, owner: comment.owner, repo: comment.repo }
  const template = example('getComment', here)
  const url = `${repoApi(here)}/issues/comments/${comment.id}`
  return {
    ...template,
    id: comment.id,
    node_id: nodeId('012:IssueComment', comment.id),
    url,
    html_url: `${repoWeb(here)}/pull/${comment.issueNumber}#issuecomment-${comment.id}`,
    issue_url: `${repoApi(here)}/issues/${comment.issueNumber}`,
    body: comment.body,
    user: renderUser(comment.user, where, template.user),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    author_association:
      comment.user.toLowerCase() === comment.owner.toLowerCase() ? 'OWNER' : 'NONE'
  }
}

/**
 * @param {StatusRecord} status
 * @param {Where} where
 * @returns {Json}
 */
export function renderStatus(status, where) {
  const template = example('createStatus', where)
  const creator = renderUser(status.creator, where, template.creator)
  return {
    ...template,
    url: `${repoApi(where)}/statuses/${status.sha}`,
    avatar_url: creator.avatar_url,
    id: status.id,
    node_id: nodeId('013:StatusContext', status.id),
    state: status.state,
    description: status.description,
    target_url: status.targetUrl,
    context: status.context,
    created_at: status.createdAt,
    updated_at: status.createdAt,
    creator
  }
}

/**
 * The combined status of a commit: the latest status of each context, and one state for all.
 *
 * @param {string} sha
 * @param {StatusRecord[]} latest one per context
 * @param {Where} where
 * @returns {Json}
 */
export function renderCombinedStatus(sha, latest, where) {
  const template = example('combinedStatus', where)
  const states = latest.map((status) => status.state)
  const state = states.some((s) => s === 'error' || s === 'failure')
    ? 'failure'
    : states.length === 0 || states.includes('pending')
      ? 'pending'
      : 'success'
  const fullName = `${where.owner}/${where.repo}`
  return {
    ...template,
    state,
    statuses: latest.map((status) => {
      const { creator: _creator, ...rest } = renderStatus(status, where)
      return rest
    }),
    sha,
    total_count: latest.length,
    repository: renderRepository(template.repository, fullName, where, false),
    commit_url: `${repoApi(where)}/commits/${sha}`,
    url: `${repoApi(where)}/commits/${sha}/status`
  }
}

/**
 * @param {CheckRunRecord} run
 * @param {Where} where
 * @returns {Json}
 */
export function renderCheckRun(run, where) {
  const template = example('createCheckRun', where)
  const url = `${repoApi(where)}/check-runs/${run.id}`
  const html = `${repoWeb(where)}/runs/${run.id}`
  const bot = run.app.replace(/\[bot\]$/, '')
  const app =
    bot === 'github-actions' ? ACTIONS_APP : { id: account(run.app).id, slug: bot, name: bot }
  return {
    ...template,
    id: run.id,
    head_sha: run.headSha,
    node_id: nodeId('08:CheckRun', run.id),
    external_id: run.externalId ?? '',
    url,
    html_url: html,
    details_url: run.detailsUrl ?? html,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.startedAt,
    completed_at: run.completedAt,
    output: {
      ...template.output,
      title: run.output.title,
      summary: run.output.summary,
      text: run.output.text,
      annotations_count: 0,
      annotations_url: `${url}/annotations`
    },
    name: run.name,
    check_suite: { id: fakeId(`suite:${where.owner}/${where.repo}@${run.headSha}`) },
    app: {
      ...template.app,
      ...app,
      node_id: nodeId('03:App', app.id),
      owner: renderUser(where.owner, where, template.app?.owner),
      html_url: `${where.server}/apps/${app.slug}`
    },
    pull_requests: []
  }
}

/**
 * The account of a token that is not an app's, as `GET /user` shows it.
 *
 * @param {string} login
 * @param {Where} where
 * @returns {Json}
 */
export function renderAuthenticatedUser(login, where) {
  const template = example('getUser', where)
  return { ...renderUser(login, where, template), name: login, email: null }
}
