// @ts-check
import { readFileSync } from 'node:fs'
import { account, fakeId, fakeSha } from './github-data.js'

/**
 * The fake GitHub's answers: GitHub's own example of each schema (`github-examples.json`, written
 * by `scripts/github-examples.js` from `@octokit/openapi`) with the simulator's state laid over
 * it. Every field of the example is kept; those the simulator knows (ids, numbers, shas, bodies,
 * accounts, states) are replaced, and links point at the simulator's origin and `serverUrl`.
 *
 * @typedef {import('./github-data.js').GitHubFileInput} GitHubFileInput
 * @typedef {import('./github-data.js').CommitData} CommitData
 * @typedef {import('./github-data.js').PullData} PullData
 * @typedef {import('./github-data.js').Where} Where
 * @typedef {Record<string, any>} Json
 */

export const GENERAL_DOCS = 'https://docs.github.com/rest'

/** @type {{ docs: Record<string, string>, examples: Record<string, Json> } | undefined} */
let loaded
/** Read on first use, so that the script writing the file can load the route table first. */
const read = () =>
  (loaded ??= JSON.parse(readFileSync(new URL('./github-examples.json', import.meta.url), 'utf8')))

/** @param {string} kind @returns {string} where GitHub's error answers of a route point */
export const docsOf = (kind) => read().docs[kind] ?? GENERAL_DOCS

/**
 * GitHub's example of a schema (by name) or a part of one, its links moved from the examples'
 * repository and hosts to `where`, and each of `swaps` (a number or sha of the example that its
 * links name) to the simulator's own.
 *
 * @param {string | Json} schema @param {Where} where @param {[string, string][]} [swaps]
 * @returns {Json}
 */
function example(schema, where, swaps = []) {
  const host = new URL(where.server).host
  const repo = `${encodeURIComponent(where.owner)}/${encodeURIComponent(where.repo)}`
  const pairs = ['octocat/Hello-World', 'github/hello-world'].flatMap((name) => [
    [`https://api.github.com/repos/${name}`, `${where.api}/repos/${repo}`],
    [`https://github.com/${name}`, `${where.server}/${repo}`],
    [`git://github.com/${name}`, `git://${host}/${repo}`],
    [`git@github.com:${name}`, `git@${host}:${repo}`]
  ])
  pairs.push(['https://api.github.com', where.api], ['https://github.com', where.server], ...swaps)
  let text = JSON.stringify(typeof schema === 'string' ? read().examples[schema] : schema)
  for (const [from = '', to = ''] of pairs)
    text = text.split(from).join(JSON.stringify(to).slice(1, -1))
  return JSON.parse(text)
}

/** GitHub's older global node ids: base64 of a type tag and the database id. */
const nodeId = (/** @type {string} */ tag, /** @type {number | string} */ id) =>
  Buffer.from(`${tag}${id}`).toString('base64')

/** @param {Where} where the repository's API root and web page */
const roots = (where) => {
  const repo = `${encodeURIComponent(where.owner)}/${encodeURIComponent(where.repo)}`
  return { api: `${where.api}/repos/${repo}`, web: `${where.server}/${repo}` }
}

/**
 * An account in the shape of `template`, an account of an example.
 *
 * @param {string} login @param {Where} where @param {Json} template @returns {Json}
 */
function user(login, where, template) {
  const { id, type } = account(login)
  const bot = type === 'Bot'
  return {
    ...example(template, where, [
      [`/users/${template.login}`, `/users/${encodeURIComponent(login)}`]
    ]),
    login,
    id,
    node_id: nodeId({ Bot: '03:Bot', Organization: '012:Organization', User: '04:User' }[type], id),
    avatar_url: `https://avatars.githubusercontent.com/${bot ? 'in/15368' : `u/${id}`}?v=4`,
    html_url: `${where.server}/${bot ? `apps/${login.replace(/\[bot\]$/, '')}` : login}`,
    type,
    site_admin: false
  }
}

/** @param {GitHubFileInput} file @param {Where} where @param {string} sha @returns {Json} */
export function renderFile(file, where, sha) {
  const count = (/** @type {string} */ sign) =>
    (file.patch ?? '').split('\n').filter((line) => line.startsWith(sign)).length
  const { additions = count('+'), deletions = count('-'), patch, previous_filename } = file
  const path = file.filename.split('/').map(encodeURIComponent).join('/')
  const { api, web } = roots(where)
  const { patch: _patch, previous_filename: _previous, ...template } = example('diff-entry', where)
  return {
    ...template,
    sha: file.sha ?? fakeSha(`blob ${file.filename} at ${sha}`),
    filename: file.filename,
    status: file.status ?? 'modified',
    additions,
    deletions,
    changes: file.changes ?? additions + deletions,
    blob_url: `${web}/blob/${sha}/${path}`,
    raw_url: `${web}/raw/${sha}/${path}`,
    contents_url: `${api}/contents/${path}?ref=${sha}`,
    ...(patch === undefined ? {} : { patch }),
    ...(previous_filename === undefined ? {} : { previous_filename })
  }
}

/**
 * A commit; with `files` (a single commit), also its files and stats.
 *
 * @param {CommitData} commit @param {Where} where @param {GitHubFileInput[]} [files]
 * @returns {Json}
 */
export function renderCommit(commit, where, files) {
  const { api, web } = roots(where)
  const raw = read().examples.commit ?? {}
  const { files: _f, stats: _s, ...template } = example('commit', where, [[raw.sha, commit.sha]])
  const git = (/** @type {CommitData['author']} */ { name, email, date }) => ({ name, email, date })
  const login = (/** @type {string | null} */ name) => name && user(name, where, raw.author)
  const body = {
    ...template,
    sha: commit.sha,
    node_id: nodeId('06:Commit', `${fakeId(`${where.owner}/${where.repo}`)}:${commit.sha}`),
    commit: {
      ...template.commit,
      author: git(commit.author),
      committer: git(commit.committer),
      message: commit.message,
      tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` }
    },
    author: login(commit.author.login),
    committer: login(commit.committer.login),
    parents: commit.parents.map((sha) => ({
      sha,
      url: `${api}/commits/${sha}`,
      html_url: `${web}/commit/${sha}`
    }))
  }
  if (!files) return body
  const shown = files.map((file) => renderFile(file, where, commit.sha))
  const additions = shown.reduce((sum, file) => sum + file.additions, 0)
  const deletions = shown.reduce((sum, file) => sum + file.deletions, 0)
  return { ...body, stats: { total: additions + deletions, additions, deletions }, files: shown }
}

/**
 * @param {{ base: CommitData, head: CommitData, commits: CommitData[], baseRef: string,
 *   headRef: string, total: number, files?: GitHubFileInput[] }} comparison `files` is left out
 *   after the first page
 * @param {Where} where @returns {Json}
 */
export function renderComparison(comparison, where) {
  const { base, head, baseRef, headRef, total } = comparison
  const { api, web } = roots(where)
  const html = `${web}/compare/${baseRef}...${headRef}`
  const short = (/** @type {string} */ sha) => `${where.owner}:${sha.slice(0, 7)}`
  const { files: _files, ...template } = example('commit-comparison', where)
  return {
    ...template,
    url: `${api}/compare/${baseRef}...${headRef}`,
    html_url: html,
    permalink_url: `${web}/compare/${short(base.sha)}...${short(head.sha)}`,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    base_commit: renderCommit(base, where),
    merge_base_commit: renderCommit(base, where),
    status: total === 0 ? 'identical' : 'ahead',
    ahead_by: total,
    behind_by: 0,
    total_commits: total,
    commits: comparison.commits.map((commit) => renderCommit(commit, where)),
    ...(comparison.files && {
      files: comparison.files.map((file) => renderFile(file, where, head.sha))
    })
  }
}

/** @param {string} name @param {Where} where @returns {Json} */
export function renderLabel(name, where) {
  const id = fakeId(`label:${where.owner}/${where.repo}:${name}`.toLowerCase())
  return {
    ...example('label', where),
    id,
    node_id: nodeId('05:Label', id),
    name,
    // A string, not null: GitHub's schema of a pull request's labels takes no null here.
    description: '',
    default: false,
    url: `${roots(where).api}/labels/${encodeURIComponent(name)}`,
    color: fakeSha(name.toLowerCase()).slice(0, 6)
  }
}

/**
 * A pull request, in the short shape of lists (`pull-request-simple`) or the whole one
 * (`pull-request`), which adds merge state and counts (`comments`: its conversation's).
 *
 * @param {PullData} pull @param {Where} where
 * @param {'pull-request-simple' | 'pull-request'} schema @returns {Json}
 */
export function renderPull(pull, where, schema, comments = 0) {
  const raw = read().examples[schema] ?? {}
  // The example's own number and head sha name it in every link, `_links` included.
  const swaps = /** @type {[string, string][]} */ ([
    [`/${raw.number}`, `/${pull.number}`],
    [raw.head.sha, pull.head.sha]
  ])
  const template = example(schema, where, swaps)
  const key = `${where.owner}/${where.repo}#${pull.number}`.toLowerCase()
  const id = key === 'codertocat/hello-world#2' ? 279147437 : fakeId(`pull:${key}`)
  const side = (/** @type {'head' | 'base'} */ which) => {
    const { ref, sha, repo: fullName } = pull[which]
    const [owner = '', name = ''] = fullName.split('/')
    const repoId =
      { 'codertocat/hello-world': 186853002 }[fullName.toLowerCase()] ?? fakeId(fullName)
    const repo = example(raw[which].repo, { ...where, owner, repo: name })
    const fork = fullName.toLowerCase() !== pull.base.repo.toLowerCase()
    return {
      ...template[which],
      label: `${owner}:${ref}`,
      ref,
      sha,
      user: user(owner, where, raw[which].user),
      repo: {
        ...repo,
        id: repoId,
        node_id: nodeId('010:Repository', repoId),
        name,
        full_name: fullName,
        owner: user(owner, where, raw[which].repo.owner),
        private: false,
        fork,
        default_branch: 'master'
      }
    }
  }
  const team = (/** @type {string} */ slug) => {
    const teamId = fakeId(`team:${where.owner}/${slug}`.toLowerCase())
    const url = `${where.api}/teams/${teamId}`
    return {
      ...example(raw.requested_teams[0], where),
      id: teamId,
      node_id: nodeId('04:Team', teamId),
      name: slug,
      slug,
      description: null,
      url,
      members_url: `${url}/members{/member}`,
      repositories_url: `${url}/repos`,
      html_url: `${where.server}/orgs/${encodeURIComponent(where.owner)}/teams/${slug}`,
      parent: null,
      type: 'organization'
    }
  }
  const { user: login, labels, reviewers, teams, head: _head, base: _base, files, ...fields } = pull
  const rendered = {
    ...template,
    ...fields,
    id,
    node_id: nodeId('011:PullRequest', id),
    user: user(login, where, raw.user),
    labels: labels.map((name) => renderLabel(name, where)),
    milestone: null,
    active_lock_reason: null,
    assignee: null,
    assignees: [],
    auto_merge: null,
    requested_reviewers: reviewers.map((reviewer) => user(reviewer, where, raw.user)),
    requested_teams: teams.map(team),
    head: side('head'),
    base: side('base'),
    author_association: login.toLowerCase() === where.owner.toLowerCase() ? 'OWNER' : 'NONE'
  }
  if (schema === 'pull-request-simple') return rendered
  const sum = (/** @type {'additions' | 'deletions'} */ field) =>
    files.reduce((total, file) => total + (file[field] ?? 0), 0)
  const open = pull.state === 'open'
  return {
    ...rendered,
    merged: pull.merged_at !== null,
    merged_by: null,
    comments,
    review_comments: 0,
    mergeable: open || null,
    rebaseable: open || null,
    mergeable_state: open ? 'clean' : 'unknown',
    maintainer_can_modify: false,
    commits: 1,
    changed_files: files.length,
    additions: sum('additions'),
    deletions: sum('deletions')
  }
}

/**
 * A conversation comment; every issue number of the simulator is a pull request, so its page is
 * under `/pull/`.
 *
 * @param {import('./github.js').CommentRecord} comment @param {Where} where @returns {Json}
 */
export function renderComment(comment, where) {
  const { api, web } = roots(where)
  const template = example('issue-comment', where)
  const { id, issueNumber: number, body, user: login } = comment
  return {
    ...template,
    id,
    node_id: nodeId('012:IssueComment', id),
    url: `${api}/issues/comments/${id}`,
    html_url: `${web}/pull/${number}#issuecomment-${id}`,
    issue_url: `${api}/issues/${number}`,
    body,
    user: user(login, where, read().examples['issue-comment']?.user),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    author_association: login.toLowerCase() === comment.owner.toLowerCase() ? 'OWNER' : 'NONE'
  }
}

/** @param {import('./github.js').StatusRecord} status @param {Where} where @returns {Json} */
export function renderStatus(status, where) {
  const creator = user(status.creator, where, read().examples.status?.creator)
  const { id, state, description, context, targetUrl: target_url, createdAt: created_at } = status
  return {
    ...example('status', where),
    url: `${roots(where).api}/statuses/${status.sha}`,
    avatar_url: creator.avatar_url,
    id,
    node_id: nodeId('013:StatusContext', id),
    state,
    description,
    target_url,
    context,
    created_at,
    updated_at: created_at,
    creator
  }
}

/**
 * A commit's combined status: the latest status of each context (`statuses`, one page of them,
 * without their creators, as GitHub lists them here), how many contexts there are, one state for
 * them all, and the repository.
 *
 * @param {{ sha: string, statuses: import('./github.js').StatusRecord[], total: number,
 *   state: 'failure' | 'pending' | 'success' }} combined
 * @param {Where} where @returns {Json}
 */
export function renderCombinedStatus(combined, where) {
  const { api } = roots(where)
  const raw = read().examples['combined-commit-status'] ?? {}
  const template = example('combined-commit-status', where)
  const id = fakeId(`${where.owner}/${where.repo}`)
  return {
    ...template,
    state: combined.state,
    statuses: combined.statuses.map((status) => {
      const { creator: _creator, ...simple } = renderStatus(status, where)
      return simple
    }),
    sha: combined.sha,
    total_count: combined.total,
    repository: {
      ...template.repository,
      id,
      node_id: nodeId('010:Repository', id),
      name: where.repo,
      full_name: `${where.owner}/${where.repo}`,
      owner: user(where.owner, where, raw.repository?.owner)
    },
    commit_url: `${api}/commits/${combined.sha}`,
    url: `${api}/commits/${combined.sha}/status`
  }
}

/**
 * A commit's check runs (`{ total_count, check_runs }`, GitHub's example for each run): each
 * run's name, status and conclusion as the `checks` knob says (`completed` with a conclusion,
 * else `in_progress`), its `details_url` verbatim (default its own page).
 *
 * @param {string} sha
 * @param {NonNullable<import('./scenario.js').GitHubChecksInput['runs']>} runs one page
 * @param {number} total @param {Where} where @returns {Json}
 */
export function renderCheckRuns(sha, runs, total, where) {
  const { api, web } = roots(where)
  const template = example('checkRuns', where).check_runs?.[0] ?? {}
  return {
    total_count: total,
    check_runs: runs.map((run, index) => {
      const id = fakeId(`${where.owner}/${where.repo}@${sha} ${run.name} ${index}`)
      const conclusion = run.conclusion ?? null
      const status = run.status ?? (conclusion === null ? 'in_progress' : 'completed')
      const html = `${web}/runs/${id}`
      return {
        ...template,
        id,
        head_sha: sha,
        node_id: nodeId('08:CheckRun', id),
        url: `${api}/check-runs/${id}`,
        html_url: html,
        details_url: run.details_url === undefined ? html : run.details_url,
        status,
        conclusion: status === 'completed' ? conclusion : null,
        completed_at: status === 'completed' ? template.completed_at : null,
        name: run.name
      }
    })
  }
}

/**
 * A repository (`full-repository`): GitHub's example with its names, default branch and
 * visibility.
 *
 * @param {Where} where @param {string} defaultBranch @param {boolean} [isPrivate]
 * @returns {Json}
 */
export function renderRepository(where, defaultBranch, isPrivate = false) {
  const raw = read().examples['full-repository'] ?? {}
  // Not a fork, nor made from a template: GitHub's example is both.
  const {
    source: _source,
    parent: _parent,
    template_repository: _template,
    ...template
  } = example('full-repository', where)
  const id = fakeId(`${where.owner}/${where.repo}`)
  return {
    ...template,
    id,
    node_id: nodeId('010:Repository', id),
    name: where.repo,
    full_name: `${where.owner}/${where.repo}`,
    owner: user(where.owner, where, raw.owner),
    private: isPrivate,
    fork: false,
    language: template.language ?? null,
    visibility: isPrivate ? 'private' : 'public',
    default_branch: defaultBranch
  }
}

/**
 * The legacy `permission` field of each role: maintain reads as write, triage as read (GitHub's
 * documentation of "Get repository permissions for a user", whose `role_name` is the role itself;
 * a person who is no collaborator is answered 404).
 */
const LEGACY = { admin: 'admin', maintain: 'write', write: 'write', triage: 'read', read: 'read' }

/**
 * A collaborator's permission (`repository-collaborator-permission`). A custom role reads as
 * `write` in the legacy field here, as one built on write does on GitHub.
 *
 * @param {string} login @param {string} role @param {Where} where @returns {Json}
 */
export function renderPermission(login, role, where) {
  const answer = example('repository-collaborator-permission', where)
  const legacy = /** @type {Record<string, string>} */ (LEGACY)[role] ?? 'write'
  const collaborator = { ...user(login, where, answer.user), role_name: role }
  return { ...answer, permission: legacy, role_name: role, user: collaborator }
}

/**
 * A reaction on a comment.
 *
 * @param {{ commentId: number, content: string, user: string, at: string }} reaction
 * @param {Where} where @returns {Json}
 */
export function renderReaction(reaction, where) {
  const answer = example('reaction', where)
  const id = fakeId(`reaction:${reaction.commentId}:${reaction.content}:${reaction.user}`)
  return {
    ...answer,
    id,
    node_id: nodeId('08:Reaction', id),
    content: reaction.content,
    created_at: reaction.at,
    user: user(reaction.user, where, answer.user)
  }
}
