// @ts-check
import { createHash } from 'node:crypto'

/**
 * The fake GitHub's data: the change every compare, commit and pull request shows unless a knob
 * says otherwise, and the functions that render it in the shapes of GitHub's REST API. The
 * shapes are checked against `@octokit/openapi-types`, generated from GitHub's own description
 * of the API (a types-only package that `@actions/github` brings in through `@octokit/types`).
 *
 * The defaults line up with GitHub's example event payloads in `__fixtures__/events/`: the
 * repository `Codertocat/Hello-World`, its first commit `6113728…`, and pull request 2 from
 * `changes` (`ec26c3e…`) into `master` (`f95f852…`).
 *
 * @typedef {import('@octokit/openapi-types').components['schemas']} Schemas
 * @typedef {Schemas['diff-entry']} DiffEntry
 * @typedef {Schemas['commit']} Commit
 * @typedef {Schemas['commit-comparison']} Comparison
 * @typedef {Schemas['pull-request-simple']} PullRequestSimple
 * @typedef {Schemas['issue-comment']} IssueComment
 * @typedef {Schemas['simple-user']} SimpleUser
 * @typedef {Schemas['repository']} Repository
 * @typedef {DiffEntry['status']} DiffStatus
 */

/**
 * A changed file as a knob gives it; the simulator fills in GitHub's other fields.
 *
 * @typedef {object} GitHubFileInput
 * @property {string} filename
 * @property {DiffStatus} [status] default `modified`
 * @property {string} [patch] the diff hunks as GitHub sends them (no `diff --git` header, no
 *   final newline); leave it out for a binary file or a diff too large to show, as GitHub does
 * @property {number} [additions] default: the `+` lines of `patch`
 * @property {number} [deletions] default: the `-` lines of `patch`
 * @property {number} [changes] default `additions + deletions`
 * @property {string} [previous_filename] for `renamed` and `copied`
 * @property {string | null} [sha] the blob sha; default derived from the name and the commit
 */

/**
 * A commit author or committer. `login` links it to a GitHub account (the commit's top-level
 * `author`/`committer`); `null` leaves those `null`, as for an email no account claims.
 *
 * @typedef {object} GitHubPerson
 * @property {string} [name]
 * @property {string} [email]
 * @property {string | null} [login]
 * @property {string} [date] ISO 8601
 */

/**
 * @typedef {object} GitHubCommitInput
 * @property {string} [sha] default derived from the message and its place in the list
 * @property {string} message
 * @property {GitHubPerson} [author] default: the repository owner
 * @property {GitHubPerson} [committer] default: the author
 * @property {string[]} [parents] default: the commit before it in a compare, else one made up
 * @property {GitHubFileInput[]} [files] what `commits/{sha}` lists; default the `files` knob
 */

/**
 * @typedef {object} GitHubBranchInput
 * @property {string} [ref] branch name
 * @property {string} [sha]
 * @property {string} [repo] full name `owner/name`; another repository than the base's makes the
 *   pull request one from a fork (`head.repo.fork` is true)
 */

/**
 * @typedef {object} GitHubPullInput
 * @property {string} [title]
 * @property {string | null} [body]
 * @property {'open' | 'closed'} [state] default `open`, or `closed` when `merged_at` is set
 * @property {boolean} [draft]
 * @property {boolean} [locked]
 * @property {string} [user] login of the author, default the repository owner
 * @property {string | null} [merged_at]
 * @property {string | null} [merge_commit_sha]
 * @property {string | null} [closed_at] default `merged_at`
 * @property {GitHubBranchInput} [head]
 * @property {GitHubBranchInput} [base]
 * @property {GitHubFileInput[]} [files] what `pulls/{number}/files` lists; default the `files`
 *   knob
 */

/**
 * @typedef {object} GitHubCommentInput
 * @property {string} body
 * @property {string} [user] login of the author, default the repository owner
 * @property {number} [id] default: the next free id
 * @property {string} [created_at] default: the simulator's clock
 * @property {string} [updated_at] default `created_at`
 */

/**
 * The GitHub part of a scenario, with every default filled in.
 *
 * @typedef {object} GitHubSettings
 * @property {string | null} token the only token accepted; null accepts any non-empty one
 * @property {string} user login of the account the token belongs to; it writes the comments
 * @property {string} serverUrl origin of the web pages in `html_url` and friends
 * @property {GitHubFileInput[] | null} files null: the built-in change
 * @property {GitHubCommitInput[] | null} commits null: one commit, the head of the compare
 * @property {Record<string, GitHubPullInput>} pulls by number
 * @property {Record<string, number[]>} commitPulls sha → numbers of its pull requests
 * @property {Record<string, GitHubCommentInput[]>} comments issue number → comments already there
 * @property {string[]} missingCommits shas or refs GitHub does not know
 */

/**
 * Where an answer is rendered for: the API origin the request came through (including any
 * `/api/v3` prefix), the web origin and the repository in the path.
 *
 * @typedef {{ api: string, server: string, owner: string, repo: string }} Where
 */

/**
 * A resolved commit.
 *
 * @typedef {object} CommitData
 * @property {string} sha
 * @property {string} message
 * @property {Required<GitHubPerson>} author
 * @property {Required<GitHubPerson>} committer
 * @property {string[]} parents
 * @property {string} tree
 * @property {GitHubFileInput[]} files
 */

/**
 * A comment as the simulator keeps it; tests read these through `simulator.comments`.
 *
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
 */

export const ZERO_SHA = '0000000000000000000000000000000000000000'
/** `Initial commit` of `Codertocat/Hello-World`, pushed in the `push` examples. */
export const INITIAL_SHA = '6113728f27ae82c7b1a177c8d03f9e96e0adf246'
/** Head of pull request 2 (branch `changes`) in the `pull_request` examples. */
export const PULL_HEAD_SHA = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821'
/** Base of pull request 2 (branch `master`) in the `pull_request` examples. */
export const PULL_BASE_SHA = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e'
/** The pull request of the `pull_request` examples. */
export const EXAMPLE_PULL_NUMBER = 2

/** The login of `GITHUB_TOKEN` when it writes a comment. */
export const ACTIONS_BOT = 'github-actions[bot]'

const DEFAULT_BRANCH = 'master'
const CHANGE_DATE = '2019-05-15T15:20:30Z'
const INITIAL_DATE = '2019-05-15T15:19:25Z'
const PULL_DATE = '2019-05-15T15:20:33Z'
export const CAP = { compareCommits: 250, compareFiles: 300, files: 3000 }

/** @type {Record<string, { id: number, type: 'User' | 'Organization' | 'Bot' }>} */
const KNOWN_ACCOUNTS = {
  codertocat: { id: 21031067, type: 'User' },
  octocat: { id: 583231, type: 'User' },
  hubot: { id: 480938, type: 'User' },
  'octo-org': { id: 79927191, type: 'Organization' },
  'github-actions[bot]': { id: 41898282, type: 'Bot' }
}

/** @type {Record<string, number>} */
const KNOWN_REPOSITORY_IDS = {
  'codertocat/hello-world': 186853002,
  'hubot/hello-world': 186853150,
  'octo-org/octo-repo': 6811672
}

/** Pull request ids as the examples give them, by `owner/repo#number`. */
/** @type {Record<string, number>} */
const KNOWN_PULL_IDS = { 'codertocat/hello-world#2': 279147437 }

const CHANGE_MESSAGE =
  'Add a --dry-run flag to deploy\n\n' +
  'Lists the files a deploy would upload and stops before uploading any.'

/**
 * The change every compare, commit and pull request shows by default: a source file and its
 * test, a lock file too large for GitHub to show a patch, a generated bundle, a binary image and
 * a docs page.
 *
 * @type {readonly GitHubFileInput[]}
 */
export const DEFAULT_FILES = Object.freeze([
  {
    filename: 'src/commands/deploy.ts',
    status: 'modified',
    patch: [
      '@@ -8,6 +8,8 @@ export interface DeployOptions {',
      '   target: string',
      '   /** Print each uploaded file. */',
      '   verbose: boolean',
      '+  /** List what would be uploaded, then stop. */',
      '+  dryRun: boolean',
      ' }',
      ' ',
      ' export async function deploy(options: DeployOptions): Promise<void> {',
      '@@ -15,6 +17,10 @@ export async function deploy(options: DeployOptions): Promise<void> {',
      '   const files = await collect(options.target)',
      '   if (files.length === 0) return',
      ' ',
      '-  await upload(files, { verbose: options.verbose })',
      '+  if (options.dryRun) {',
      '+    for (const file of files) console.log(`would upload ${file}`)',
      '+    return',
      '+  }',
      '+  await upload(files, { verbose: options.verbose })',
      '   console.log(`uploaded ${files.length} files`)',
      ' }'
    ].join('\n')
  },
  {
    filename: 'src/commands/deploy.test.ts',
    status: 'added',
    patch: [
      '@@ -0,0 +1,8 @@',
      "+import { jest } from '@jest/globals'",
      "+import { deploy } from './deploy.js'",
      '+',
      "+test('a dry run lists the files and uploads nothing', async () => {",
      "+  const log = jest.spyOn(console, 'log').mockImplementation(() => {})",
      "+  await deploy({ target: '__fixtures__/site', verbose: false, dryRun: true })",
      "+  expect(log).toHaveBeenCalledWith('would upload index.html')",
      '+})'
    ].join('\n')
  },
  { filename: 'package-lock.json', status: 'modified', additions: 1480, deletions: 1312 },
  {
    filename: 'dist/index.js',
    status: 'modified',
    patch: [
      '@@ -1,4 +1,4 @@',
      " import './sourcemap-register.cjs';",
      '-var e={8:function(t){t.exports={deploy:async function(o){const n=await c(o.target);' +
        'if(n.length===0)return;await u(n,{verbose:o.verbose});console.log(`uploaded ' +
        '${n.length} files`)}}}};',
      '+var e={8:function(t){t.exports={deploy:async function(o){const n=await c(o.target);' +
        'if(n.length===0)return;if(o.dryRun){for(const f of n)console.log(`would upload ' +
        '${f}`);return}await u(n,{verbose:o.verbose});console.log(`uploaded ${n.length} ' +
        'files`)}}}};',
      ' var r={};',
      ' export default r;'
    ].join('\n')
  },
  { filename: 'docs/images/dry-run.png', status: 'added', additions: 0, deletions: 0 },
  {
    filename: 'docs/deploy.md',
    status: 'modified',
    patch: [
      '@@ -12,6 +12,14 @@ mint deploy --target site',
      ' ',
      ' Add `--verbose` to print each file as it is uploaded.',
      ' ',
      '+## Dry run',
      '+',
      '+`--dry-run` lists the files a deploy would upload and stops before uploading any:',
      '+',
      '+```sh',
      '+mint deploy --target site --dry-run',
      '+```',
      '+',
      ' ## Troubleshooting',
      ' ',
      '-If the upload stops with `403`, check the token.',
      '+If the upload stops with `403`, check that your token can write to the site.'
    ].join('\n')
  }
])

/** @type {readonly GitHubFileInput[]} */
const INITIAL_FILES = Object.freeze([
  { filename: 'README.md', status: 'added', patch: '@@ -0,0 +1 @@\n+# Hello-World' }
])

/**
 * Commits the examples name, by sha; any other sha is the default change.
 *
 * @type {Record<string, Partial<GitHubCommitInput> & { tree?: string }>}
 */
const KNOWN_COMMITS = {
  [INITIAL_SHA]: {
    message: 'Initial commit',
    author: { login: 'Codertocat', date: INITIAL_DATE },
    parents: [],
    files: [...INITIAL_FILES],
    tree: '31b122c26a97cf9af023e9ddab94a82c6e77b0ea'
  },
  [PULL_HEAD_SHA]: { parents: [PULL_BASE_SHA] }
}

/** @returns {GitHubSettings} */
export function defaultGitHubSettings() {
  return {
    token: null,
    user: ACTIONS_BOT,
    serverUrl: 'https://github.com',
    files: null,
    commits: null,
    pulls: {},
    commitPulls: { [PULL_HEAD_SHA]: [EXAMPLE_PULL_NUMBER] },
    comments: {},
    missingCommits: []
  }
}

/**
 * A sha-shaped name for made-up objects: the same text always gives the same sha.
 *
 * @param {string} text
 * @returns {string}
 */
export function fakeSha(text) {
  return createHash('sha1').update(text).digest('hex')
}

/**
 * @param {string} text
 * @returns {number} a stable id in GitHub's range for `text`
 */
function fakeId(text) {
  return 100_000_000 + (parseInt(fakeSha(text).slice(0, 8), 16) % 900_000_000)
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
 * @param {string} login
 * @returns {{ id: number, type: 'User' | 'Organization' | 'Bot' }}
 */
function account(login) {
  return (
    KNOWN_ACCOUNTS[login.toLowerCase()] ?? {
      id: fakeId(`user:${login.toLowerCase()}`),
      type: login.endsWith('[bot]') ? 'Bot' : 'User'
    }
  )
}

/**
 * @param {string} login
 * @returns {string} the noreply address GitHub gives an account
 */
function noreplyEmail(login) {
  return `${account(login).id}+${login}@users.noreply.github.com`
}

// ---------------------------------------------------------------------------------------------
// Resolving what a request asks about

/**
 * Whether GitHub knows a ref: the zero sha (a created or deleted ref's other side) and the
 * `missingCommits` knob are unknown, every other ref resolves.
 *
 * @param {GitHubSettings} settings
 * @param {Where} where
 * @param {string} ref
 * @returns {boolean}
 */
export function isMissing(settings, where, ref) {
  if (/^0+$/.test(ref)) return true
  const sha = resolveSha(settings, where, ref)
  return settings.missingCommits.some(
    (missing) => missing === ref || resolveSha(settings, where, missing) === sha
  )
}

/**
 * The full sha of a ref: a known commit its prefix names (one of the knobs or the examples), itself
 * when it is a full sha, else a sha made up from the repository and the name, as a branch would
 * point somewhere.
 *
 * @param {GitHubSettings} settings
 * @param {Where} where
 * @param {string} ref
 * @returns {string}
 */
export function resolveSha(settings, where, ref) {
  const lower = ref.toLowerCase()
  if (/^[0-9a-f]{4,40}$/.test(lower)) {
    const known = knownShas(settings).find((sha) => sha.startsWith(lower))
    if (known) return known
    if (lower.length === 40) return lower
  }
  return fakeSha(`${where.owner}/${where.repo}@${ref}`.toLowerCase())
}

/**
 * @param {GitHubSettings} settings
 * @returns {string[]}
 */
function knownShas(settings) {
  const pulls = Object.values(settings.pulls).flatMap((pull) => [
    pull.head?.sha,
    pull.base?.sha,
    pull.merge_commit_sha
  ])
  return [
    ...knobCommits(settings).map((commit) => commit.sha),
    ...Object.keys(settings.commitPulls),
    ...pulls,
    ...Object.keys(KNOWN_COMMITS)
  ]
    .flatMap((sha) => (typeof sha === 'string' && /^[0-9a-f]{40}$/i.test(sha) ? [sha] : []))
    .map((sha) => sha.toLowerCase())
}

/**
 * The `commits` knob with every sha filled in.
 *
 * @param {GitHubSettings} settings
 * @returns {(GitHubCommitInput & { sha: string })[]}
 */
function knobCommits(settings) {
  return (settings.commits ?? []).map((commit, index) => ({
    ...commit,
    sha: (commit.sha ?? fakeSha(`commit ${index}: ${commit.message}`)).toLowerCase()
  }))
}

/**
 * A commit by sha: one of the `commits` knob, one the examples name, or the default change.
 * Commits of the knob follow each other; the first one's parent is made up.
 *
 * @param {GitHubSettings} settings
 * @param {Where} where
 * @param {string} ref
 * @returns {CommitData}
 */
export function commitData(settings, where, ref) {
  const sha = resolveSha(settings, where, ref)
  const listed = knobCommits(settings)
  const at = listed.findIndex((commit) => commit.sha === sha)
  const input = { ...KNOWN_COMMITS[sha], ...listed[at] }
  const author = person(where, input.author, CHANGE_DATE)
  const before = at > 0 ? listed[at - 1]?.sha : undefined
  return {
    sha,
    message: input.message ?? CHANGE_MESSAGE,
    author,
    committer: input.committer ? person(where, input.committer, author.date) : author,
    parents: input.parents ?? [before ?? fakeSha(`${sha}^`)],
    tree: KNOWN_COMMITS[sha]?.tree ?? fakeSha(`tree ${sha}`),
    files: input.files ?? settings.files ?? [...DEFAULT_FILES]
  }
}

/**
 * @param {Where} where
 * @param {GitHubPerson | undefined} input
 * @param {string | undefined} date
 * @returns {Required<GitHubPerson>}
 */
function person(where, input, date) {
  const login = input?.login === undefined ? where.owner : input.login
  const name = input?.name ?? login ?? 'Someone'
  return {
    name,
    email: input?.email ?? (login === null ? 'someone@example.com' : noreplyEmail(login)),
    login,
    date: input?.date ?? date ?? CHANGE_DATE
  }
}

/**
 * What `compare/{base}...{head}` covers: the commits (the `commits` knob, or the head alone) and
 * the files (the `files` knob, or the built-in change); nothing when both ends are one commit.
 *
 * @param {GitHubSettings} settings
 * @param {Where} where
 * @param {string} baseRef
 * @param {string} headRef
 * @returns {{ base: CommitData, head: CommitData, commits: CommitData[],
 *   files: GitHubFileInput[] }}
 */
export function comparisonData(settings, where, baseRef, headRef) {
  const base = commitData(settings, where, baseRef)
  const head = commitData(settings, where, headRef)
  if (base.sha === head.sha) return { base, head, commits: [], files: [] }

  const commits =
    settings.commits === null
      ? [{ ...head, parents: [base.sha] }]
      : knobCommits(settings).map((input, index) => {
          const commit = commitData(settings, where, input.sha)
          return index === 0 && !input.parents ? { ...commit, parents: [base.sha] } : commit
        })
  return { base, head, commits, files: settings.files ?? [...DEFAULT_FILES] }
}

/**
 * @typedef {object} PullData
 * @property {number} number
 * @property {string} title
 * @property {string | null} body
 * @property {'open' | 'closed'} state
 * @property {boolean} draft
 * @property {boolean} locked
 * @property {string} user
 * @property {string} createdAt
 * @property {string | null} mergedAt
 * @property {string | null} closedAt
 * @property {string | null} mergeCommitSha
 * @property {Required<GitHubBranchInput>} head
 * @property {Required<GitHubBranchInput>} base
 * @property {GitHubFileInput[]} files
 */

/**
 * Every number is a pull request: number 2 is the one of GitHub's examples, the others are the
 * default change on a branch `patch-{number}`; the `pulls` knob changes any field.
 *
 * @param {GitHubSettings} settings
 * @param {Where} where
 * @param {number} number
 * @returns {PullData}
 */
export function pullData(settings, where, number) {
  const input = settings.pulls[String(number)] ?? {}
  const example = number === EXAMPLE_PULL_NUMBER
  const fullName = `${where.owner}/${where.repo}`
  const mergedAt = input.merged_at ?? null
  return {
    number,
    title: input.title ?? (example ? 'Update the README with new information.' : firstLine()),
    body:
      input.body !== undefined
        ? input.body
        : example
          ? 'This is a pretty simple change that we need to pull into master.'
          : (CHANGE_MESSAGE.split('\n\n')[1] ?? null),
    state: input.state ?? (mergedAt === null ? 'open' : 'closed'),
    draft: input.draft ?? false,
    locked: input.locked ?? false,
    user: input.user ?? where.owner,
    createdAt: PULL_DATE,
    mergedAt,
    closedAt: input.closed_at !== undefined ? input.closed_at : mergedAt,
    mergeCommitSha: input.merge_commit_sha ?? null,
    head: {
      ref: input.head?.ref ?? (example ? 'changes' : `patch-${number}`),
      sha: input.head?.sha ?? (example ? PULL_HEAD_SHA : fakeSha(`${fullName}#${number}`)),
      repo: input.head?.repo ?? fullName
    },
    base: {
      ref: input.base?.ref ?? DEFAULT_BRANCH,
      sha: input.base?.sha ?? PULL_BASE_SHA,
      repo: input.base?.repo ?? fullName
    },
    files: input.files ?? settings.files ?? [...DEFAULT_FILES]
  }
}

/** @returns {string} */
function firstLine() {
  return CHANGE_MESSAGE.split('\n', 1)[0] ?? CHANGE_MESSAGE
}

// ---------------------------------------------------------------------------------------------
// Rendering in GitHub's shapes

/**
 * @param {string} path
 * @returns {string}
 */
function encodePath(path) {
  return path.split('/').map(encodeURIComponent).join('/')
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
 * @param {string} patch
 * @param {'+' | '-'} sign
 * @returns {number}
 */
function countLines(patch, sign) {
  return patch.split('\n').filter((line) => line.startsWith(sign)).length
}

/**
 * @param {GitHubFileInput} file
 * @param {Where} where
 * @param {string} sha the commit the file is shown at
 * @returns {DiffEntry}
 */
export function renderFile(file, where, sha) {
  const additions = file.additions ?? (file.patch ? countLines(file.patch, '+') : 0)
  const deletions = file.deletions ?? (file.patch ? countLines(file.patch, '-') : 0)
  const path = encodePath(file.filename)
  /** @type {DiffEntry} */
  const entry = {
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
  if (file.patch !== undefined) entry.patch = file.patch
  if (file.previous_filename !== undefined) entry.previous_filename = file.previous_filename
  return entry
}

/**
 * @param {string} login
 * @param {Where} where
 * @returns {SimpleUser}
 */
export function renderUser(login, where) {
  const { id, type } = account(login)
  const url = `${where.api}/users/${encodeURIComponent(login)}`
  return {
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
    gravatar_id: '',
    url,
    html_url:
      type === 'Bot'
        ? `${where.server}/apps/${login.replace(/\[bot\]$/, '')}`
        : `${where.server}/${login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type,
    user_view_type: 'public',
    site_admin: false
  }
}

/**
 * @param {CommitData} commit
 * @param {Where} where
 * @param {{ files?: GitHubFileInput[] }} [detail] a single commit also lists its files and stats
 * @returns {Commit}
 */
export function renderCommit(commit, where, detail) {
  const api = repoApi(where)
  const repositoryId = repositoryIdOf(`${where.owner}/${where.repo}`)
  /** @type {Commit} */
  const rendered = {
    sha: commit.sha,
    node_id: nodeId('06:Commit', `${repositoryId}:${commit.sha}`),
    commit: {
      author: gitPerson(commit.author),
      committer: gitPerson(commit.committer),
      message: commit.message,
      tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
      url: `${api}/git/commits/${commit.sha}`,
      comment_count: 0,
      verification: {
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
    author: commit.author.login === null ? null : renderUser(commit.author.login, where),
    committer: commit.committer.login === null ? null : renderUser(commit.committer.login, where),
    parents: commit.parents.map((sha) => ({
      sha,
      url: `${api}/commits/${sha}`,
      html_url: `${repoWeb(where)}/commit/${sha}`
    }))
  }
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
 * @param {Required<GitHubPerson>} person
 * @returns {{ name: string, email: string, date: string }}
 */
function gitPerson(person) {
  return { name: person.name, email: person.email, date: person.date }
}

/**
 * @param {{ base: CommitData, head: CommitData, commits: CommitData[], files: GitHubFileInput[],
 *   baseRef: string, headRef: string, totalCommits: number, showFiles: boolean }} comparison
 * @param {Where} where
 * @returns {Comparison}
 */
export function renderComparison(comparison, where) {
  const { base, head, baseRef, headRef } = comparison
  const web = repoWeb(where)
  const owner = where.owner
  const html = `${web}/compare/${baseRef}...${headRef}`
  /** @type {Comparison} */
  const rendered = {
    url: `${repoApi(where)}/compare/${baseRef}...${headRef}`,
    html_url: html,
    permalink_url: `${web}/compare/${owner}:${short(base.sha)}...${owner}:${short(head.sha)}`,
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
  if (comparison.showFiles) {
    rendered.files = comparison.files.map((file) => renderFile(file, where, head.sha))
  }
  return rendered
}

/**
 * @param {string} sha
 * @returns {string} the seven characters GitHub abbreviates a sha to
 */
function short(sha) {
  return sha.slice(0, 7)
}

/**
 * @param {string} fullName
 * @returns {number}
 */
function repositoryIdOf(fullName) {
  return KNOWN_REPOSITORY_IDS[fullName.toLowerCase()] ?? fakeId(`repo:${fullName.toLowerCase()}`)
}

/**
 * @param {string} fullName `owner/name`
 * @param {Where} where
 * @param {boolean} fork
 * @returns {Repository}
 */
export function renderRepository(fullName, where, fork) {
  const [owner = fullName, name = fullName] = fullName.split('/')
  const here = { ...where, owner, repo: name }
  const api = repoApi(here)
  const web = repoWeb(here)
  const id = repositoryIdOf(fullName)
  const host = new URL(where.server).host
  return {
    id,
    node_id: nodeId('010:Repository', id),
    name,
    full_name: fullName,
    private: false,
    owner: renderUser(owner, where),
    html_url: web,
    description: null,
    fork,
    url: api,
    forks_url: `${api}/forks`,
    keys_url: `${api}/keys{/key_id}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    teams_url: `${api}/teams`,
    hooks_url: `${api}/hooks`,
    issue_events_url: `${api}/issues/events{/number}`,
    events_url: `${api}/events`,
    assignees_url: `${api}/assignees{/user}`,
    branches_url: `${api}/branches{/branch}`,
    tags_url: `${api}/tags`,
    blobs_url: `${api}/git/blobs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    trees_url: `${api}/git/trees{/sha}`,
    statuses_url: `${api}/statuses/{sha}`,
    languages_url: `${api}/languages`,
    stargazers_url: `${api}/stargazers`,
    contributors_url: `${api}/contributors`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    commits_url: `${api}/commits{/sha}`,
    git_commits_url: `${api}/git/commits{/sha}`,
    comments_url: `${api}/comments{/number}`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    contents_url: `${api}/contents/{+path}`,
    compare_url: `${api}/compare/{base}...{head}`,
    merges_url: `${api}/merges`,
    archive_url: `${api}/{archive_format}{/ref}`,
    downloads_url: `${api}/downloads`,
    issues_url: `${api}/issues{/number}`,
    pulls_url: `${api}/pulls{/number}`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    labels_url: `${api}/labels{/name}`,
    releases_url: `${api}/releases{/id}`,
    deployments_url: `${api}/deployments`,
    created_at: INITIAL_DATE,
    updated_at: '2019-05-15T15:20:41Z',
    pushed_at: '2019-05-15T15:20:57Z',
    git_url: `git://${host}/${fullName}.git`,
    ssh_url: `git@${host}:${fullName}.git`,
    clone_url: `${web}.git`,
    svn_url: web,
    homepage: null,
    size: 0,
    stargazers_count: 0,
    watchers_count: 0,
    language: 'TypeScript',
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: true,
    has_pages: false,
    has_discussions: false,
    forks_count: fork ? 0 : 1,
    mirror_url: null,
    archived: false,
    disabled: false,
    open_issues_count: 1,
    license: null,
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: [],
    visibility: 'public',
    forks: fork ? 0 : 1,
    open_issues: 1,
    watchers: 0,
    default_branch: DEFAULT_BRANCH
  }
}

/**
 * @param {PullData} pull
 * @param {Where} where
 * @returns {PullRequestSimple}
 */
export function renderPull(pull, where) {
  const api = repoApi(where)
  const web = repoWeb(where)
  const key = `${where.owner}/${where.repo}#${pull.number}`.toLowerCase()
  const id = KNOWN_PULL_IDS[key] ?? fakeId(`pull:${key}`)
  const self = `${api}/pulls/${pull.number}`
  const html = `${web}/pull/${pull.number}`
  const issue = `${api}/issues/${pull.number}`
  const statuses = `${api}/statuses/${pull.head.sha}`
  /**
   * @param {Required<GitHubBranchInput>} branch
   * @returns {PullRequestSimple['head']}
   */
  const side = (branch) => {
    const [owner = where.owner] = branch.repo.split('/')
    return {
      label: `${owner}:${branch.ref}`,
      ref: branch.ref,
      sha: branch.sha,
      user: renderUser(owner, where),
      repo: renderRepository(branch.repo, where, branch.repo !== pull.base.repo)
    }
  }
  return {
    url: self,
    id,
    node_id: nodeId('011:PullRequest', id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issue,
    number: pull.number,
    state: pull.state,
    locked: pull.locked,
    title: pull.title,
    user: renderUser(pull.user, where),
    body: pull.body,
    created_at: pull.createdAt,
    updated_at: pull.closedAt ?? pull.createdAt,
    closed_at: pull.closedAt,
    merged_at: pull.mergedAt,
    merge_commit_sha: pull.mergeCommitSha,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    labels: [],
    milestone: null,
    draft: pull.draft,
    commits_url: `${self}/commits`,
    review_comments_url: `${self}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${issue}/comments`,
    statuses_url: statuses,
    head: side(pull.head),
    base: side(pull.base),
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
    active_lock_reason: null
  }
}

/**
 * Every issue number of the simulator is a pull request, so comment links point at `/pull/`.
 *
 * @param {CommentRecord} comment
 * @param {Where} where
 * @returns {IssueComment}
 */
export function renderComment(comment, where) {
  const here = { ...where, owner: comment.owner, repo: comment.repo }
  const url = `${repoApi(here)}/issues/comments/${comment.id}`
  return {
    url,
    html_url: `${repoWeb(here)}/pull/${comment.issueNumber}#issuecomment-${comment.id}`,
    issue_url: `${repoApi(here)}/issues/${comment.issueNumber}`,
    id: comment.id,
    node_id: nodeId('012:IssueComment', comment.id),
    user: renderUser(comment.user, where),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    author_association:
      comment.user.toLowerCase() === comment.owner.toLowerCase() ? 'OWNER' : 'NONE',
    body: comment.body,
    reactions: {
      url: `${url}/reactions`,
      total_count: 0,
      '+1': 0,
      '-1': 0,
      laugh: 0,
      hooray: 0,
      confused: 0,
      heart: 0,
      rocket: 0,
      eyes: 0
    },
    performed_via_github_app: null
  }
}
