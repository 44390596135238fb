// @ts-check
import { createHash } from 'node:crypto'

/**
 * The fake GitHub's data: the change every compare, commit and pull request shows unless a knob
 * says otherwise, and the accounts, repositories and pull requests the knobs describe. The
 * answers themselves are built in `github-render.js` from GitHub's own examples.
 *
 * The defaults line up with GitHub's example event payloads in `__fixtures__/events/`: the
 * repository `Codertocat/Hello-World`, its first commit `6113728…`, and pull request 2 from
 * `changes` (`ec26c3e…`) into `master` (`f95f852…`).
 *
 * @typedef {import('@octokit/openapi-types').components['schemas']} Schemas
 * @typedef {Schemas['diff-entry']['status']} DiffStatus
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
 * @property {string[]} [labels] label names it already has
 * @property {string[]} [requested_reviewers] logins whose review it already asks for
 * @property {string[]} [requested_teams] team slugs whose review it already asks for
 */

/**
 * A token the fake GitHub knows, under a label that stands for it in what the simulator records.
 *
 * @typedef {object} GitHubTokenInput
 * @property {string} token the secret, sent as `Bearer` or `token`
 * @property {string} [user] login of its account (default the `user` knob); an account whose
 *   login ends in `[bot]` is an app's, which `GET /user` refuses
 * @property {string[]} [repos] `owner/name` of the repositories it may write to; absent: every one
 * @property {string[]} [readOnly] repositories it may read but not write (a public repository of
 *   someone else, or a token with read permission): writes there answer 403
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
 * @typedef {object} GitHubToken
 * @property {string} token
 * @property {string} user
 * @property {string[] | null} repos null: every repository
 * @property {string[]} readOnly
 */

/**
 * The GitHub part of a scenario, with every default filled in.
 *
 * @typedef {object} GitHubSettings
 * @property {string | null} token the only token accepted besides `tokens`; null with no
 *   `tokens` accepts any non-empty one
 * @property {Record<string, GitHubToken>} tokens by label
 * @property {string} user login of the account the token belongs to; it writes the comments
 * @property {string[]} nonCollaborators logins no repository counts as collaborators: asking
 *   them for a review answers 422
 * @property {string} serverUrl origin of the web pages in `html_url` and friends
 * @property {GitHubFileInput[] | null} files null: the built-in change
 * @property {GitHubCommitInput[] | null} commits null: one commit, the head of the compare
 * @property {Record<string, GitHubPullInput>} pulls by number (any repository) or
 *   `owner/name#number` (that repository only, first)
 * @property {Record<string, number[]>} commitPulls sha → numbers of its pull requests
 * @property {Record<string, GitHubCommentInput[]>} comments issue number or `owner/name#number`
 *   → comments already there
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
    tokens: {},
    user: ACTIONS_BOT,
    nonCollaborators: [],
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
export function fakeId(text) {
  return 100_000_000 + (parseInt(fakeSha(text).slice(0, 8), 16) % 900_000_000)
}

/**
 * @param {string} login
 * @returns {{ id: number, type: 'User' | 'Organization' | 'Bot' }}
 */
export function account(login) {
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
export function noreplyEmail(login) {
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
 * @property {string | null} updatedAt null: as `closedAt`, else `createdAt`
 * @property {string[]} labels
 * @property {string[]} reviewers
 * @property {string[]} teams
 * @property {Required<GitHubBranchInput>} head
 * @property {Required<GitHubBranchInput>} base
 * @property {GitHubFileInput[]} files
 */

/**
 * What changed on a pull request through the simulator since the knobs described it.
 *
 * @typedef {object} PullChange
 * @property {'open' | 'closed'} [state]
 * @property {string} [title]
 * @property {string | null} [body]
 * @property {string} [closedAt]
 * @property {string} [updatedAt]
 * @property {string[]} [labels]
 * @property {string[]} [reviewers]
 * @property {string[]} [teams]
 */

/**
 * The entry of a knob keyed by `owner/name#number` or by number alone, in that order.
 *
 * @template T
 * @param {Record<string, T>} knob
 * @param {Where} where
 * @param {number} number
 * @returns {T | undefined}
 */
export function byNumber(knob, where, number) {
  const full = `${where.owner}/${where.repo}#${number}`.toLowerCase()
  const key = Object.keys(knob).find((k) => k.toLowerCase() === full)
  return knob[key ?? String(number)]
}

/**
 * Every number is a pull request: number 2 is the one of GitHub's examples, the others are the
 * default change on a branch `patch-{number}`; the `pulls` knob changes any field, and `change`
 * what was written through the simulator since.
 *
 * @param {GitHubSettings} settings
 * @param {Where} where
 * @param {number} number
 * @param {PullChange} [change]
 * @returns {PullData}
 */
export function pullData(settings, where, number, change = {}) {
  const input = byNumber(settings.pulls, where, number) ?? {}
  const example = number === EXAMPLE_PULL_NUMBER
  const fullName = `${where.owner}/${where.repo}`
  const mergedAt = input.merged_at ?? null
  return {
    number,
    title:
      change.title ??
      input.title ??
      (example ? 'Update the README with new information.' : firstLine()),
    body:
      change.body !== undefined
        ? change.body
        : input.body !== undefined
          ? input.body
          : example
            ? 'This is a pretty simple change that we need to pull into master.'
            : (CHANGE_MESSAGE.split('\n\n')[1] ?? null),
    state: change.state ?? input.state ?? (mergedAt === null ? 'open' : 'closed'),
    draft: input.draft ?? false,
    locked: input.locked ?? false,
    user: input.user ?? where.owner,
    createdAt: PULL_DATE,
    mergedAt,
    closedAt:
      change.state === 'open'
        ? null
        : (change.closedAt ?? (input.closed_at !== undefined ? input.closed_at : mergedAt)),
    mergeCommitSha: input.merge_commit_sha ?? null,
    updatedAt: change.updatedAt ?? null,
    labels: change.labels ?? [...(input.labels ?? [])],
    reviewers: change.reviewers ?? [...(input.requested_reviewers ?? [])],
    teams: change.teams ?? [...(input.requested_teams ?? [])],
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
